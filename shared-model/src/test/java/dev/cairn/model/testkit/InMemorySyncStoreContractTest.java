package dev.cairn.model.testkit;

import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.SyncStoreContract;

/** The team-sync contract on the fakes the domain tests use (log and memories). */
class InMemorySyncStoreContractTest extends SyncStoreContract {

    private final InMemorySyncStore sync = new InMemorySyncStore();
    private final InMemoryMemoryStore memories = new InMemoryMemoryStore();

    @Override
    protected SyncStore syncStore() {
        return sync;
    }

    @Override
    protected MemoryStore memoryStore() {
        return memories;
    }
}
