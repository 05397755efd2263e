package dev.cairn.embedded;

import dev.cairn.model.consolidate.ConsolidatorTest;
import java.nio.file.Path;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;

/**
 * The consolidation cases of {@link ConsolidatorTest} on the embedded stores (SQLite, Lucene) with the ONNX model:
 * whether a restatement counts as the same fact, and a new value as the same subject, depends on the similarities
 * the shipped model gives those sentences, which no fake embedder can vouch for.
 */
class OnnxConsolidatorTest extends ConsolidatorTest {

    private static OnnxEmbedder embedder;

    @TempDir
    Path dir;

    @BeforeAll
    static void loadModel() {
        embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
    }

    @Override
    protected Backend open() {
        return new Backend(
                new SqliteMemoryStore(dir.resolve("memories.db")),
                new LuceneVectorIndex(dir.resolve("index")),
                embedder);
    }
}
