package dev.cairn.embedded;

import dev.cairn.model.port.Embedder;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * CDI wiring of the embedded ports under {@code cairn.data-dir}: {@code memories.db} (SQLite), {@code index/}
 * (Lucene). Each bean also serves its port type. Default beans, so a deployment that brings other adapters replaces them without touching this module.
 */
@ApplicationScoped
public class EmbeddedAdapters {

    @Produces
    @DefaultBean
    @ApplicationScoped
    SqliteMemoryStore sqliteStore(EmbeddedConfig config) {
        return new SqliteMemoryStore(Path.of(config.dataDir()).resolve("memories.db"));
    }

    void closeStore(@Disposes SqliteMemoryStore store) {
        store.close();
    }

    @Produces
    @DefaultBean
    @ApplicationScoped
    LuceneVectorIndex luceneIndex(EmbeddedConfig config) {
        return new LuceneVectorIndex(Path.of(config.dataDir()).resolve("index"));
    }

    void closeIndex(@Disposes LuceneVectorIndex index) {
        index.close();
    }

    @Produces
    @DefaultBean
    @ApplicationScoped
    Embedder embedder(EmbeddedConfig config) {
        // ONNX Runtime already uses intra-op threads; the executor only spreads a batch's texts over the cores.
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, Runtime.getRuntime().availableProcessors()),
                r -> {
                    Thread t = new Thread(r, "cairn-embed");
                    t.setDaemon(true);
                    return t;
                });
        return OnnxEmbedder.load(config.embedding().model(), pool);
    }
}
