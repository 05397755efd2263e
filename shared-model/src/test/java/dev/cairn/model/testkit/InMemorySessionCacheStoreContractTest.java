package dev.cairn.model.testkit;

import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionCacheStoreContract;

/** The session-cache-store contract on the fake the domain tests use. */
class InMemorySessionCacheStoreContractTest extends SessionCacheStoreContract {

    private final InMemorySessionCacheStore store = new InMemorySessionCacheStore();

    @Override
    protected SessionCacheStore store() {
        return store;
    }
}
