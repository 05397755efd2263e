package dev.cairn.model.index;

import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.DeletionCascadeContract;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.testkit.InMemoryColdStore;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemorySessionCacheStore;
import dev.cairn.model.testkit.InMemorySessionStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;

/** The deletion cascade on the in-memory fakes the domain tests use (the real backends run it in integration-tests). */
class InMemoryDeletionCascadeTest extends DeletionCascadeContract {

    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final InMemoryVectorIndex index = new InMemoryVectorIndex();
    private final InMemoryColdStore cold = new InMemoryColdStore(Clock.systemUTC());
    private final InMemorySessionStore sessions = new InMemorySessionStore();
    private final InMemorySessionCacheStore cache = new InMemorySessionCacheStore();

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
