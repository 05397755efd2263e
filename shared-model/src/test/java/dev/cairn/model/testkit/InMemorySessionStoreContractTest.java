package dev.cairn.model.testkit;

import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.SessionStoreContract;

/** The session-store contract on the fake the domain tests use. */
class InMemorySessionStoreContractTest extends SessionStoreContract {

    private final InMemorySessionStore store = new InMemorySessionStore();

    @Override
    protected SessionStore store() {
        return store;
    }
}
