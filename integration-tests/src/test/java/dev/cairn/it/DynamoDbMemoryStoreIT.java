package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.MemoryStoreContract;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
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

    @Test
    void createTableIfMissing_shouldBeIdempotent_andDeclareTheIndexesTheStoreQueries() {
        store.createTableIfMissing();
        var table = Dynalite.client()
                .describeTable(b -> b.tableName("cairn-memories"))
                .table();
        assertThat(table.localSecondaryIndexes())
                .extracting(i -> i.indexName())
                .containsExactlyInAnyOrder("by_recency", "by_importance");
        assertThat(table.globalSecondaryIndexes())
                .extracting(i -> i.indexName())
                .containsExactly("pending_index");
    }
}
