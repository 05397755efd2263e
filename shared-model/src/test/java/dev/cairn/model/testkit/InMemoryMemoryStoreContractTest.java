package dev.cairn.model.testkit;

import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.MemoryStoreContract;

/** The record-store contract on the fake the domain tests use: it must behave as the real stores do. */
class InMemoryMemoryStoreContractTest extends MemoryStoreContract {

    private final InMemoryMemoryStore store = new InMemoryMemoryStore();

    @Override
    protected MemoryStore store() {
        return store;
    }
}
