package dev.cairn.it;

import dev.cairn.embedded.SqliteMemoryStore;
import dev.cairn.embedded.SqliteSyncStore;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.SyncStoreContract;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;

/**
 * Team sync on the embedded default (SQLite log, SQLite memories). The tests and their assertions are inherited from
 * {@link SyncStoreContract}; this class only supplies the backend.
 */
class SqliteSyncStoreContractIT extends SyncStoreContract {

    private static SqliteSyncStore sync;
    private static SqliteMemoryStore memories;

    @BeforeAll
    static void open() throws Exception {
        Path dir = Files.createTempDirectory("cairn-sync-");
        sync = new SqliteSyncStore(dir.resolve("sync.db"));
        memories = new SqliteMemoryStore(dir.resolve("memories.db"));
    }

    @Override
    protected SyncStore syncStore() {
        return sync;
    }

    @Override
    protected MemoryStore memoryStore() {
        return memories;
    }
}
