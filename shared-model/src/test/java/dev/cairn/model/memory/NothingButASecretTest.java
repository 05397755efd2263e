package dev.cairn.model.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretRejected;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Under the redact policy a memory whose content is nothing but secrets is refused (422, findings, nothing stored):
 * stored, "[REDACTED:github-pat]" holds nothing to remember and comes back from every recall. A content with words
 * beside its secret is stored redacted, as before.
 */
class NothingButASecretTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final String TOKEN = "ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";

    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final MemoryService memories = new MemoryService(
            store,
            new Indexer(store, new InMemoryVectorIndex(), new HashingEmbedder()),
            Clock.systemUTC(),
            MemoryLimits.DEFAULTS,
            SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT));

    private static MemoryDraft draft(String content) {
        return new MemoryDraft(content, "fact", "team", null, null, null, null, null, null);
    }

    @Test
    void aContentThatIsOnlyASecret_shouldBeRefused_andNothingStored() {
        for (String content : List.of(TOKEN, "  " + TOKEN + "\n", "\"" + TOKEN + "\";")) {
            assertThatThrownBy(() -> memories.create(ALICE, TEAM, draft(content)))
                    .as(content)
                    .isInstanceOf(SecretRejected.class)
                    .hasMessageContaining("nothing else would be left to remember")
                    .hasMessageNotContaining(TOKEN);
        }
        assertThat(store.count(TEAM)).isZero();
    }

    @Test
    void aContentWithWordsBesideItsSecret_shouldBeStoredRedacted() {
        Memory m =
                memories.create(ALICE, TEAM, draft("the CI token is " + TOKEN)).memory();
        assertThat(m.content()).isEqualTo("the CI token is [REDACTED:github-pat]");
    }

    @Test
    void aBatchItemThatIsOnlyASecret_shouldBeRejectedInItsSlot_andTheOthersStored() {
        List<BatchOutcome> out = memories.createBatch(ALICE, TEAM, List.of(draft("Builds use Maven"), draft(TOKEN)));
        assertThat(out).extracting(BatchOutcome::ok).containsExactly(true, false);
        assertThat(((SecretRejected) out.get(1).error()).field()).isEqualTo("memories[1].content");
        assertThat(store.count(TEAM)).isEqualTo(1);
    }
}
