package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.VectorIndex;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A crash between the store write and the index write loses nothing: catch-up finishes the job. */
class IndexConvergenceTest {

    private static final OnnxEmbedder EMBEDDER = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN,
            ForkJoinPool.commonPool());

    @TempDir
    Path dir;

    @Test
    void catchUp_shouldIndexWhatTheWritePathNeverIndexed_andDropDeletedOnes() {
        Id acme = new Id("acme");
        Memory kept = Memories.team("acme", "m1", "The staging database is PostgreSQL 16");
        Memory deleted = Memories.team("acme", "m2", "Deploys happen on Tuesdays");
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"));
             LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("index"))) {
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
    }

    private static List<String> search(VectorIndex index, String q) {
        return index.search(new VectorIndex.Search(new VectorIndex.Filter(new Id("acme"), new Id("alice"), null,
                Set.of(), Set.of()), EMBEDDER.embedQuery(q), EMBEDDER.modelId(), null, 5))
                .stream().map(c -> c.id().value()).toList();
    }
}
