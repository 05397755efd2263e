package dev.cairn.it;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.model.port.MemoryStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The store contract on DynamoDB's API, served by dynalite (a real server, not an in-memory fake in this JVM). */
@ExtendWith(Dynalite.class)
class DynamoDbMemoryStoreIT extends MemoryStoreContract {

    private static DynamoDbMemoryStore store;

    @BeforeAll
    static void table() {
        store = new DynamoDbMemoryStore(Dynalite.client(), "cairn-memories");
        store.createTableIfMissing();
    }

    @Override
    protected MemoryStore store() {
        return store;
    }
}
