package dev.cairn.model.testkit;

import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.port.VectorIndexContract;

/** The index contract on the brute-force fake the domain tests use. */
class InMemoryVectorIndexContractTest extends VectorIndexContract {

    private InMemoryVectorIndex last;

    @Override
    protected VectorIndex open() {
        last = new InMemoryVectorIndex();
        return last;
    }

    @Override
    protected VectorIndex reopen() {
        return last.reopened();
    }
}
