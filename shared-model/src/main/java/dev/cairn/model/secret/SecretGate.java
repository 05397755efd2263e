package dev.cairn.model.secret;

import dev.cairn.model.id.Id;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Applies the secret policy on every path that stores or returns user text.
 *
 * <p>Writes: {@link #screen} rejects or redacts per the team's policy. Reads: {@link #forRead} redacts whatever the
 * current rules flag, so a rule added today protects memories stored last year. Findings are counted per rule
 * ({@link #counts}); the secret itself is never logged nor kept.
 */
public final class SecretGate {

    private final SecretScanner scanner;
    private final Function<Id, SecretPolicy> policies;
    private final Map<String, LongAdder> findingsByRule = new ConcurrentHashMap<>();
    private final LongAdder rejected = new LongAdder();
    private final LongAdder redactedWrites = new LongAdder();
    private final LongAdder redactedReads = new LongAdder();

    private final BiConsumer<String, String> onFinding;

    /**
     * @param onFinding told of every finding as (rule id, outcome: {@code rejected}, {@code redacted} or
     *                  {@code redacted-on-read}), for metrics; never given the secret
     */
    public SecretGate(
            SecretScanner scanner, Function<Id, SecretPolicy> policies, BiConsumer<String, String> onFinding) {
        this.scanner = scanner;
        this.policies = policies;
        this.onFinding = onFinding;
    }

    /** One policy for every team, no metrics. */
    public static SecretGate uniform(SecretScanner scanner, SecretPolicy policy) {
        return new SecretGate(scanner, team -> policy, (rule, outcome) -> {});
    }

    /** What a write may store: the text (redacted when needed) and what was redacted (empty when clean). */
    public record Screened(String text, List<Finding> redactions) {}

    public SecretPolicy policyOf(Id team) {
        return policies.apply(team);
    }

    /**
     * Screens one field of a write.
     *
     * @throws SecretRejected when the text holds a secret and the team's policy is {@link SecretPolicy#REJECT}
     */
    public Screened screen(Id team, String field, String text) {
        List<Finding> found = scanner.scan(text);
        if (found.isEmpty()) {
            return new Screened(text, List.of());
        }
        if (policyOf(team) == SecretPolicy.REJECT) {
            count(found, "rejected");
            rejected.increment();
            throw new SecretRejected(field, found);
        }
        count(found, "redacted");
        redactedWrites.increment();
        return new Screened(SecretScanner.redact(text, found), found);
    }

    /** The text as it may be returned: anything the current rules flag is redacted. */
    public String forRead(String text) {
        List<Finding> found = scanner.scan(text);
        if (found.isEmpty()) {
            return text;
        }
        count(found, "redacted-on-read");
        redactedReads.increment();
        return SecretScanner.redact(text, found);
    }

    public SecretScanner scanner() {
        return scanner;
    }

    private void count(List<Finding> found, String outcome) {
        for (Finding f : found) {
            findingsByRule.computeIfAbsent(f.ruleId(), r -> new LongAdder()).increment();
            onFinding.accept(f.ruleId(), outcome);
        }
    }

    /** Counters for metrics: findings per rule, rejected writes, redacted writes and reads. */
    public Counts counts() {
        Map<String, Long> byRule = new java.util.TreeMap<>();
        findingsByRule.forEach((k, v) -> byRule.put(k, v.sum()));
        return new Counts(byRule, rejected.sum(), redactedWrites.sum(), redactedReads.sum());
    }

    public record Counts(
            Map<String, Long> findingsByRule, long rejectedWrites, long redactedWrites, long redactedReads) {}
}
