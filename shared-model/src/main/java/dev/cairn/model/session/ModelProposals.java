package dev.cairn.model.session;

import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretScanner;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a language model proposes as facts, checked the way Cairn checks everything else: the model proposes, Cairn
 * decides. A type outside the five, evidence that names no user message of the conversation, a confidence outside
 * [0, 1], or a fact that carries a credential (the scanner's shapes, or a statement that gives a password's value) is
 * not kept but reported as skipped, redacted where it holds a secret. Shared by every LLM adapter, so an
 * OpenAI-compatible local model is held to exactly the same rules as any other.
 */
public final class ModelProposals {

    private ModelProposals() {}

    /** One proposed fact; {@code evidence} are 1-based numbers of the conversation's messages as prompted. */
    public record ProposedFact(
            String type, String content, double confidence, List<Integer> evidence, boolean explicit) {}

    /** One statement the model chose to leave out. */
    public record ProposedSkip(String text, String reason) {}

    /** The instructions for an extraction prompt; messages are numbered from 1 in {@link #conversation}. */
    public static final String INSTRUCTIONS = """
            You extract durable facts from a conversation between a user and an AI agent, so that the agent \
            remembers them in later sessions. Messages are numbered; each has a role.

            Extract only what the USER stated or confirmed and what will still be true next week:
            - preference: how the user likes things done (tools, style, language, formats);
            - convention: rules the user's team follows (naming, branching, reviews, formatting);
            - decision: choices made (technologies adopted or dropped, designs, vendors);
            - environment: where and on what things run (clouds, regions, versions, hosts, databases);
            - fact: other stable facts about the user, the team or the project.
            When the user explicitly asks to remember something ("remember that ...", "记住..."), extract it with \
            explicit=true even if it looks minor.

            Do not extract: greetings, thanks, chatter; questions; requests for the agent to do something now; \
            temporary state (what is true only right now, today, for this session, "for now", "暂时", "今天"); what \
            only the assistant or a tool said; and never any credential, token, password, PIN, key or connection \
            string — list such statements under skipped with reason "secret" and the secret replaced by [REDACTED].

            Each fact: one self-contained sentence in the user's language that makes sense without the \
            conversation (keep names, versions and numbers exactly; keep "I"/"my" or "we"/"our" as the user said \
            it); a confidence between 0 and 1; evidence = the numbers of the messages that state it. Each skipped \
            item: the text and a reason among chatter, question, request, temporary, secret, other.

            Answer only with the JSON object described by the schema.""";

    /** The JSON schema of the answer (OpenAI structured outputs and Bedrock tool schemas accept it as is). */
    public static final String SCHEMA = """
            {"type":"object","properties":{\
            "facts":{"type":"array","items":{"type":"object","properties":{\
            "type":{"type":"string","enum":["preference","convention","decision","environment","fact"]},\
            "content":{"type":"string"},"confidence":{"type":"number"},\
            "evidence":{"type":"array","items":{"type":"integer"}},"explicit":{"type":"boolean"}},\
            "required":["type","content","confidence","evidence","explicit"],"additionalProperties":false}},\
            "skipped":{"type":"array","items":{"type":"object","properties":{\
            "text":{"type":"string"},"reason":{"type":"string"}},\
            "required":["text","reason"],"additionalProperties":false}}},\
            "required":["facts","skipped"],"additionalProperties":false}""";

    private static final Set<String> TYPES = Set.of("preference", "convention", "decision", "environment", "fact");

    /** The conversation as the prompt shows it: one numbered line per message, with its role. */
    public static String conversation(List<SessionMessage> messages) {
        StringBuilder input = new StringBuilder("Conversation:\n");
        for (int i = 0; i < messages.size(); i++) {
            SessionMessage m = messages.get(i);
            input.append(i + 1)
                    .append(". [")
                    .append(m.role().name().toLowerCase(Locale.ROOT))
                    .append("] ")
                    .append(m.content())
                    .append('\n');
        }
        return input.toString();
    }

    /** The proposals that pass Cairn's checks as facts; the rest, and the model's own skips, as skipped. */
    public static FactExtractor.Extraction validate(
            List<SessionMessage> messages, List<ProposedFact> facts, List<ProposedSkip> skips, SecretScanner scanner) {
        List<FactExtractor.Fact> kept = new ArrayList<>();
        List<FactExtractor.Skipped> skipped = new ArrayList<>();
        for (ProposedFact f : facts) {
            String content = f.content() == null ? "" : f.content().strip();
            String type = f.type() == null ? "" : f.type();
            LinkedHashSet<SessionMessage> evidence = new LinkedHashSet<>();
            for (Integer n : f.evidence() == null ? List.<Integer>of() : f.evidence()) {
                if (n != null && n >= 1 && n <= messages.size()) {
                    SessionMessage m = messages.get(n - 1);
                    if (m.role() == SessionMessage.Role.USER) {
                        evidence.add(m);
                    }
                }
            }
            if (hasSecret(content, scanner)) {
                skipped.add(new FactExtractor.Skipped(redact(content, scanner), "secret"));
            } else if (content.isEmpty() || !TYPES.contains(type)) {
                skipped.add(new FactExtractor.Skipped(content, "invalid: type '" + type + "'"));
            } else if (evidence.isEmpty()) {
                skipped.add(new FactExtractor.Skipped(content, "no evidence in the user's messages"));
            } else if (evidence.stream()
                    .anyMatch(m -> hasSecret(m.content(), scanner)
                            && Statements.split(m.content()).stream().allMatch(s -> hasSecret(s.text(), scanner)))) {
                // a message whose every statement is a credential cannot be the evidence of a fact worth keeping
                skipped.add(new FactExtractor.Skipped(redact(content, scanner), "secret"));
            } else if (!(f.confidence() >= 0 && f.confidence() <= 1)) {
                skipped.add(new FactExtractor.Skipped(content, "invalid: confidence " + f.confidence()));
            } else {
                MemoryType t = MemoryType.fromWire(type);
                Scope voice = Statements.scopeOf(content);
                kept.add(new FactExtractor.Fact(
                        t,
                        content,
                        f.confidence(),
                        List.copyOf(evidence),
                        f.explicit(),
                        voice != null ? voice : t == MemoryType.PREFERENCE ? Scope.USER : Scope.TEAM));
            }
        }
        for (ProposedSkip s : skips) {
            String text = s.text() == null ? "" : s.text();
            skipped.add(new FactExtractor.Skipped(
                    redact(text, scanner), s.reason() == null || s.reason().isBlank() ? "other" : s.reason()));
        }
        return new FactExtractor.Extraction(kept, skipped);
    }

    /** Whether {@code text} carries a credential: by its shape, or as the stated value of a password, PIN or key. */
    public static boolean hasSecret(String text, SecretScanner scanner) {
        return !scanner.scan(text).isEmpty() || Statements.credential(text) != null;
    }

    /** {@code text} with every credential replaced: the scanner's findings, then a stated password's value. */
    public static String redact(String text, SecretScanner scanner) {
        List<Finding> findings = scanner.scan(text);
        String out = findings.isEmpty() ? text : SecretScanner.redact(text, findings);
        int[] value = Statements.credential(out);
        if (value != null && !insideRedaction(out, value[0], value[1])) {
            out = out.substring(0, value[0]) + "[REDACTED]" + out.substring(value[1]);
        }
        return out;
    }

    /**
     * Whether {@code [start, end)} overlaps a redaction already made: the credential cue reads "passwd
     * [REDACTED:prose-passwd-letters-digits]" as a password followed by its value, and replacing that "value" mangled
     * the marker into "passwd [REDACTED:[REDACTED]" (a new user's trial).
     */
    static boolean insideRedaction(String text, int start, int end) {
        Matcher m = MARKER.matcher(text);
        while (m.find()) {
            if (m.start() < end && start < m.end()) {
                return true;
            }
        }
        return false;
    }

    private static final Pattern MARKER = Pattern.compile("\\[REDACTED(?::[^\\]\\s]*)?]");
}
