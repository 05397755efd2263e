package dev.cairn.it;

import dev.cairn.embedded.FileColdStore;
import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.embedded.SqliteMemoryStore;
import dev.cairn.embedded.SqliteSessionCacheStore;
import dev.cairn.embedded.SqliteSessionStore;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.DeletionCascadeContract;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.VectorIndex;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The deletion cascade on the embedded default's real stores: SQLite (records, sessions, context snapshots), Lucene,
 * cold copies as files. The tests are inherited from {@link DeletionCascadeContract}.
 */
class EmbeddedDeletionCascadeIT extends DeletionCascadeContract {

    private static SqliteMemoryStore store;
    private static LuceneVectorIndex index;
    private static FileColdStore cold;
    private static SqliteSessionStore sessions;
    private static SqliteSessionCacheStore cache;

    @BeforeAll
    static void open() throws IOException {
        Path dir = Files.createTempDirectory(LocalServer.workDir(), "cascade-");
        store = new SqliteMemoryStore(dir.resolve("memories.db"));
        index = new LuceneVectorIndex(dir.resolve("index"));
        cold = new FileColdStore(dir.resolve("cold"));
        sessions = new SqliteSessionStore(dir.resolve("sessions.db"));
        cache = new SqliteSessionCacheStore(dir.resolve("session-cache.db"));
    }

    @AfterAll
    static void close() throws Exception {
        index.close();
        store.close();
        cache.close();
    }

    @Override
    protected MemoryStore memoryStore() {
        return store;
    }

    @Override
    protected VectorIndex index() {
        return index;
    }

    @Override
    protected ColdStore cold() {
        return cold;
    }

    @Override
    protected SessionStore sessionStore() {
        return sessions;
    }

    @Override
    protected SessionCacheStore cacheStore() {
        return cache;
    }
}
