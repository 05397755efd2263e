package dev.cairn.embedded;

import dev.cairn.app.Adapter;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.VectorIndex;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.nio.file.Path;

/**
 * The embedded adapters as ports, each under its {@link Adapter} name, all under {@code cairn.data-dir}: SQLite files
 * for records ({@code memories.db}, {@code sessions.db}, {@code session-cache.db}, {@code sync.db}), cold memories as
 * files ({@code cold/}), Lucene ({@code index/}) and the in-process ONNX embedder. Built on first use only.
 */
@ApplicationScoped
public class EmbeddedProducers {

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.SQLITE)
    MemoryStore memoryStore(EmbeddedConfig config) {
        return EmbeddedAdapters.sqliteStore(config);
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.SQLITE)
    SessionStore sessionStore(EmbeddedConfig config) {
        return new SqliteSessionStore(dataDir(config).resolve("sessions.db"));
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.SQLITE)
    SessionCacheStore sessionCacheStore(EmbeddedConfig config) {
        return new SqliteSessionCacheStore(dataDir(config).resolve("session-cache.db"));
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.SQLITE)
    SyncStore syncStore(EmbeddedConfig config) {
        return new SqliteSyncStore(dataDir(config).resolve("sync.db"));
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.SQLITE)
    ColdStore coldStore(EmbeddedConfig config) {
        return new FileColdStore(dataDir(config).resolve("cold"));
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.LUCENE)
    VectorIndex vectorIndex(EmbeddedConfig config) {
        return EmbeddedAdapters.luceneIndex(config);
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.ONNX)
    Embedder embedder(EmbeddedConfig config) {
        return EmbeddedAdapters.onnxEmbedder(config);
    }

    void closeMemories(@Disposes @Adapter(Adapter.SQLITE) MemoryStore store) {
        close(store);
    }

    void closeSessions(@Disposes @Adapter(Adapter.SQLITE) SessionStore store) {
        close(store);
    }

    void closeSessionCache(@Disposes @Adapter(Adapter.SQLITE) SessionCacheStore store) {
        close(store);
    }

    void closeSync(@Disposes @Adapter(Adapter.SQLITE) SyncStore store) {
        close(store);
    }

    void closeIndex(@Disposes @Adapter(Adapter.LUCENE) VectorIndex index) {
        close(index);
    }

    private static Path dataDir(EmbeddedConfig config) {
        return Path.of(config.dataDir());
    }

    /** Closes the SQLite connection or the Lucene writer at shutdown, so the last commit is on disk. */
    private static void close(Object adapter) {
        if (adapter instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing " + adapter.getClass().getSimpleName() + " failed", e);
            }
        }
    }
}
