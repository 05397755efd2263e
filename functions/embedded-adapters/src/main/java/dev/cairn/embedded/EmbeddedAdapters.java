package dev.cairn.embedded;

import dev.cairn.model.port.Embedder;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Builds the embedded adapters under {@code cairn.data-dir}: {@code memories.db} (SQLite), {@code index/} (Lucene), and
 * the in-process ONNX embedder. The deployment's backend selection decides which of them run.
 */
public final class EmbeddedAdapters {

    private EmbeddedAdapters() {}

    public static SqliteMemoryStore sqliteStore(EmbeddedConfig config) {
        return new SqliteMemoryStore(Path.of(config.dataDir()).resolve("memories.db"));
    }

    public static LuceneVectorIndex luceneIndex(EmbeddedConfig config) {
        return new LuceneVectorIndex(Path.of(config.dataDir()).resolve("index"));
    }

    public static Embedder onnxEmbedder(EmbeddedConfig config) {
        // ONNX Runtime already uses intra-op threads; the executor only spreads a batch's texts over the cores.
        ExecutorService pool =
                Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()), r -> {
                    Thread t = new Thread(r, "cairn-embed");
                    t.setDaemon(true);
                    return t;
                });
        return OnnxEmbedder.load(config.embedding().model(), pool);
    }
}
