package dev.cairn.it;

import dev.cairn.embedded.SqliteSessionCacheStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionCacheStoreContract;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The session-cache-store contract on SQLite. The tests and their assertions are inherited from
 * {@link SessionCacheStoreContract}; this class only supplies the backend.
 */
class SqliteSessionCacheStoreContractIT extends SessionCacheStoreContract {

    private static SqliteSessionCacheStore store;

    @BeforeAll
    static void open() throws Exception {
        store = new SqliteSessionCacheStore(
                Files.createTempDirectory("cairn-cache-").resolve("session-cache.db"));
    }

    @AfterAll
    static void close() throws Exception {
        store.close();
    }

    @Override
    protected SessionCacheStore store() {
        return store;
    }
}
