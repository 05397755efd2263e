package dev.cairn.it;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbSyncStore;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.SyncStoreContract;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Team sync on dynalite through the AWS adapters (log and memories in one table). The tests and their assertions are
 * inherited from {@link SyncStoreContract}; this class only supplies the backend.
 */
@ExtendWith(Dynalite.class)
class DynamoDbSyncStoreIT extends SyncStoreContract {

    private static DynamoDbSyncStore sync;
    private static DynamoDbMemoryStore memories;

    @BeforeAll
    static void createTable() {
        memories = new DynamoDbMemoryStore(Dynalite.client(), "cairn-sync");
        memories.createTableIfMissing();
        sync = new DynamoDbSyncStore(Dynalite.client(), "cairn-sync");
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
