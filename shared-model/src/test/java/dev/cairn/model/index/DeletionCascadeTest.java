package dev.cairn.model.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.DecayPolicy;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryColdStore;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import dev.cairn.model.testkit.Memories;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@code DELETE /memories/{id}} removes every copy derived from the record: its index documents and the cold copy of
 * an archived memory, whether the deleting process holds the cold tier (the local server) or not (an AWS API function,
 * whose stream indexer finishes the cascade when the tombstone's purge reaches it).
 */
class DeletionCascadeTest {

    private static final HashingEmbedder EMBEDDER = new HashingEmbedder();
    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final Clock CLOCK = Clock.systemUTC();

    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final InMemoryVectorIndex index = new InMemoryVectorIndex();
    private final InMemoryColdStore cold = new InMemoryColdStore(CLOCK);

    @Test
    void deletingAnArchivedMemory_whereTheColdTierIsHeld_leavesNoRecordDocumentOrColdCopy() {
        Indexer indexer = new Indexer(store, index, EMBEDDER, cold);
        Id id = archivedMemory(indexer);

        service(indexer).delete(ALICE, TEAM, id, null);

        assertNothingLeft(id);
    }

    @Test
    void deletingAnActiveMemory_leavesNoRecordOrDocument() {
        Indexer indexer = new Indexer(store, index, EMBEDDER, cold);
        Memory m = Memories.memory()
                .team("acme")
                .user("alice")
                .id("m1")
                .content("The staging database is PostgreSQL 16")
                .build();
        store.insertAll(List.of(m));
        indexer.index(List.of(m));
        assertThat(search()).containsExactly("m1");

        service(indexer).delete(ALICE, TEAM, m.id(), 1L);

        assertNothingLeft(m.id());
    }

    @Test
    void aDeleteByAProcessWithoutTheColdTier_leavesTheCopyUntilThePurgeIsForgotten() {
        Id id = archivedMemory(new Indexer(store, index, EMBEDDER, cold));
        Indexer apiFunction = new Indexer(store, index, EMBEDDER); // an AWS function without S3
        Indexer streamIndexer = new Indexer(store, index, EMBEDDER, cold);

        service(apiFunction).delete(ALICE, TEAM, id, null);
        assertThat(store.indexWork(TEAM, id))
                .as("the tombstone was purged inline")
                .isEmpty();
        assertThat(cold.get(TEAM, id))
                .as("the function could not reach the cold tier")
                .isPresent();

        // the tombstone's purge (a DynamoDB Streams REMOVE) reaches the stream indexer
        assertThat(streamIndexer.forget(TEAM, id)).isTrue();

        assertNothingLeft(id);
        assertThat(apiFunction.forget(TEAM, id))
                .as("without the tier there is nothing to do")
                .isFalse();
    }

    @Test
    void aTombstoneLeftPending_isFinishedByTheStreamIndexer_withTheColdCopy() {
        Id id = archivedMemory(new Indexer(store, index, EMBEDDER, cold));
        store.delete(TEAM, id, store.get(TEAM, id).orElseThrow().version()); // crash before any cascade

        assertThat(new Indexer(store, index, EMBEDDER, cold).bringUpToDate(TEAM, id))
                .isTrue();

        assertNothingLeft(id);
    }

    @Test
    void forget_shouldKeepTheCopiesOfALiveMemory() {
        Indexer streamIndexer = new Indexer(store, index, EMBEDDER, cold);
        Id id = archivedMemory(streamIndexer);

        assertThat(streamIndexer.forget(TEAM, id)).isFalse();

        assertThat(cold.get(TEAM, id)).isPresent();
    }

    /** A memory the decay job archived: a stub in the store, its full copy in the cold tier, nothing in the index. */
    private Id archivedMemory(Indexer indexer) {
        Memory m = Memories.memory()
                .team("acme")
                .user("alice")
                .id("m1")
                .content("Deploys happen on Tuesdays")
                .importance(0.01)
                .build();
        store.insertAll(List.of(m));
        indexer.index(List.of(m));
        new DecayJob(store, cold, indexer, new DecayPolicy(1.0, 0.5, Duration.ofDays(365)), CLOCK, 10)
                .run(TEAM, null, () -> false);
        assertThat(store.get(TEAM, m.id()).orElseThrow().state()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(cold.get(TEAM, m.id())).isPresent();
        return m.id();
    }

    private MemoryService service(Indexer indexer) {
        return new MemoryService(
                store,
                indexer,
                CLOCK,
                MemoryLimits.DEFAULTS,
                SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT));
    }

    private void assertNothingLeft(Id id) {
        assertThat(store.get(TEAM, id)).as("record").isEmpty();
        assertThat(store.indexWork(TEAM, id)).as("tombstone").isEmpty();
        assertThat(store.pendingIndex(10)).as("pending work").isEmpty();
        assertThat(index.liveDocuments()).as("index documents").isZero();
        assertThat(cold.get(TEAM, id)).as("cold copy").isEmpty();
        assertThat(cold.list(TEAM, 10)).as("cold listing").isEmpty();
    }

    private List<String> search() {
        return index
                .search(new VectorIndex.Search(
                        new VectorIndex.Filter(TEAM, new Id("alice"), null, Set.of(), Set.of()),
                        EMBEDDER.embedQuery("deploys"),
                        EMBEDDER.modelId(),
                        null,
                        5))
                .stream()
                .map(c -> c.id().value())
                .toList();
    }
}
