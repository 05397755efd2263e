package dev.cairn.it;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbSessionStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.SessionStoreContract;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/** The session-store contract on dynalite, in the memories table (single-table design). The tests and their
 * assertions are inherited from the contract class; this class only supplies the backend.
 */
@ExtendWith(Dynalite.class)
class DynamoDbSessionStoreIT extends SessionStoreContract {

    private static DynamoDbSessionStore store;

    @BeforeAll
    static void createTable() {
        new DynamoDbMemoryStore(Dynalite.client(), "cairn-sessions").createTableIfMissing();
        store = new DynamoDbSessionStore(Dynalite.client(), "cairn-sessions");
    }

    @Override
    protected SessionStore store() {
        return store;
    }
}
