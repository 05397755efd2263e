package dev.cairn.model.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import dev.cairn.model.testkit.Memories;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** A crash between the store write and the index write loses nothing: catch-up finishes the job. */
class IndexConvergenceTest {

    private static final HashingEmbedder EMBEDDER = new HashingEmbedder();

    @Test
    void catchUp_shouldIndexWhatTheWritePathNeverIndexed_andDropDeletedOnes() {
        Id acme = new Id("acme");
        Memory kept = Memories.memory()
                .team("acme")
                .id("m1")
                .content("The staging database is PostgreSQL 16")
                .build();
        Memory deleted = Memories.memory()
                .team("acme")
                .id("m2")
                .content("Deploys happen on Tuesdays")
                .build();
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        InMemoryVectorIndex index = new InMemoryVectorIndex();
        Indexer indexer = new Indexer(store, index, EMBEDDER);
        store.insertAll(List.of(deleted));
        indexer.index(List.of(deleted));
        // "crash": the store has m1, the index never heard of it; m2 is deleted but its vectors remain
        store.insertAll(List.of(kept));
        store.delete(acme, new Id("m2"), 1);
        assertThat(search(index, "which database runs in staging?")).containsExactly("m2");

        assertThat(indexer.converge(10)).isEqualTo(2);

        assertThat(search(index, "which database runs in staging?")).containsExactly("m1");
        assertThat(store.pendingIndex(10)).isEmpty();
        assertThat(indexer.converge(10)).isZero();
    }

    private static List<String> search(VectorIndex index, String q) {
        return index
                .search(new VectorIndex.Search(
                        new VectorIndex.Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                        EMBEDDER.embedQuery(q),
                        EMBEDDER.modelId(),
                        null,
                        5))
                .stream()
                .map(c -> c.id().value())
                .toList();
    }
}
