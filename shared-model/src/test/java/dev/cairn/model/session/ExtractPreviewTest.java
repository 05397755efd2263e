package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.consolidate.FactComparison;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.SessionService.MessageDraft;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemorySessionStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The end-of-session preview: it lists what {@code end} would then extract and skip, and writes nothing (no memory, no
 * head change, no secret counter), so the session can still be ended and extracts the same.
 */
class ExtractPreviewTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final Caller BOB = new Caller(new Id("bob"), Set.of(TEAM));
    private static final Id S = new Id("s1");

    private final InMemorySessionStore sessionStore = new InMemorySessionStore();
    private final InMemoryMemoryStore memoryStore = new InMemoryMemoryStore();
    private SecretGate gate;

    private SessionService sessions(SecretPolicy policy) {
        return sessions(policy, new RuleBasedExtractor(SecretScanner.bundled()));
    }

    private SessionService sessions(SecretPolicy policy, FactExtractor extractor) {
        gate = SecretGate.uniform(SecretScanner.bundled(), policy);
        InMemoryVectorIndex index = new InMemoryVectorIndex();
        HashingEmbedder embedder = new HashingEmbedder();
        Indexer indexer = new Indexer(memoryStore, index, embedder);
        MemoryService memories =
                new MemoryService(memoryStore, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, gate);
        return new SessionService(
                sessionStore,
                new ExtractiveSummarizer(),
                extractor,
                memories,
                new Consolidator(
                        memories,
                        memoryStore,
                        index,
                        embedder,
                        new FactComparison(FactComparison.Thresholds.defaults()),
                        8),
                gate,
                Clock.systemUTC(),
                SessionService.Limits.defaults());
    }

    private static void say(SessionService sessions, String text) {
        sessions.append(ALICE, TEAM, S, new MessageDraft("user", text, null));
    }

    @Test
    void thePreview_shouldListWhatEndThenExtracts_andWriteNothing() {
        SessionService sessions = sessions(SecretPolicy.REDACT);
        say(sessions, "We deploy the billing service with Terraform.");
        say(sessions, "Do we prefer Gradle or Maven?");
        say(sessions, "I prefer tabs over spaces.");
        long headVersion = sessionStore.head(TEAM, S).orElseThrow().version();
        SecretGate.Counts counts = gate.counts();

        SessionService.Preview preview = sessions.preview(ALICE, TEAM, S);

        assertThat(preview.ended()).isFalse();
        assertThat(preview.wouldExtract()).isNotEmpty();
        assertThat(preview.skipped()).isNotEmpty();
        assertThat(memoryStore.scan(TEAM, null, 100)).isEmpty();
        assertThat(sessionStore.head(TEAM, S).orElseThrow().version()).isEqualTo(headVersion);
        assertThat(sessionStore.head(TEAM, S).orElseThrow().ended()).isFalse();
        assertThat(gate.counts()).isEqualTo(counts);
        assertThat(sessions.preview(ALICE, TEAM, S)).isEqualTo(preview); // asking again changes nothing either

        SessionService.Ended ended = sessions.end(ALICE, TEAM, S);
        assertThat(ended.extracted())
                .extracting(o -> o.memory().content())
                .containsExactlyElementsOf(preview.wouldExtract().stream()
                        .map(SessionService.Proposed::content)
                        .toList());
        assertThat(ended.extracted())
                .extracting(o -> o.memory().type())
                .containsExactlyElementsOf(preview.wouldExtract().stream()
                        .map(SessionService.Proposed::type)
                        .toList());
        assertThat(ended.skipped()).isEqualTo(preview.skipped());
        assertThat(preview.wouldExtract().get(0).evidence())
                .containsExactlyElementsOf(ended.extracted().get(0).memory().evidence());

        assertThat(sessions.preview(ALICE, TEAM, S)).isEqualTo(new SessionService.Preview(true, List.of(), List.of()));
    }

    @Test
    void aSecretInAFact_shouldBeRedactedInThePreview_orListedAsSkipped_underARejectingPolicy() {
        // messages are screened on append and the rule-based extractor skips secrets itself; a model-based extractor
        // may still put one into a fact (say, from its own prompt), so the write path's gate decides there
        String key = "ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";
        FactExtractor careless = messages -> new FactExtractor.Extraction(
                messages.stream()
                        .map(m -> new FactExtractor.Fact(
                                MemoryType.FACT, m.content() + " Its token is " + key + ".", 0.8, List.of(m), false))
                        .toList(),
                List.of());
        SessionService redacting = sessions(SecretPolicy.REDACT, careless);
        say(redacting, "Staging deploys run from the ops runner.");
        SecretGate.Counts counts = gate.counts();

        assertThat(redacting.preview(ALICE, TEAM, S).wouldExtract())
                .allSatisfy(p -> assertThat(p.content()).doesNotContain(key))
                .anySatisfy(p -> assertThat(p.redacted()).isTrue());
        assertThat(gate.counts()).isEqualTo(counts);

        SessionService.Preview rejected =
                sessions(SecretPolicy.REJECT, careless).preview(ALICE, TEAM, S);
        assertThat(rejected.wouldExtract())
                .noneSatisfy(p -> assertThat(p.redacted()).isTrue());
        assertThat(rejected.skipped())
                .anySatisfy(x -> assertThat(x.reason()).isEqualTo("secret"))
                .allSatisfy(x -> assertThat(x.text()).doesNotContain(key));
        assertThat(memoryStore.scan(TEAM, null, 100)).isEmpty();
    }

    @Test
    void anotherUsersSession_shouldAnswerNotFound_andAnUnknownSessionExtractNothing() {
        SessionService sessions = sessions(SecretPolicy.REDACT);
        say(sessions, "We deploy the billing service with Terraform.");

        assertThatThrownBy(() -> sessions.preview(BOB, TEAM, S)).isInstanceOf(NotFound.class);
        assertThat(sessions.preview(ALICE, TEAM, new Id("never-written")))
                .isEqualTo(new SessionService.Preview(false, List.of(), List.of()));
        assertThat(sessionStore.head(TEAM, new Id("never-written"))).isEmpty();
    }
}
