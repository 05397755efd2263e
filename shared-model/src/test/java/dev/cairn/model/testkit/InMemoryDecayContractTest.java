package dev.cairn.model.testkit;

import dev.cairn.model.port.DecayContract;
import java.time.Clock;

/** The decay contract on the fakes the domain tests use: record store, cold store and index in memory. */
class InMemoryDecayContractTest extends DecayContract {

    // one set of stores for the class, as the real backends share theirs: the contract's teams keep tests apart
    private static final Stores STORES =
            new Stores(new InMemoryMemoryStore(), new InMemoryColdStore(Clock.systemUTC()), new InMemoryVectorIndex());

    @Override
    protected Stores stores() {
        return STORES;
    }
}
