package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.MemoryStoreContract;
import dev.cairn.model.testkit.Memories;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;

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
        assertThat(table.localSecondaryIndexes()).isEmpty();
        assertThat(table.globalSecondaryIndexes())
                .extracting(i -> i.indexName())
                .containsExactlyInAnyOrder("by_recency", "by_importance", "pending_index");
    }

    @Test
    void aBatchWithAFaultOnItemK_shouldStoreEveryOtherItem_andReportOnlyItemKAsNotWritten() {
        Id team = new Id("fault" + System.nanoTime());
        List<Memory> batch = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            batch.add(Memories.memory()
                    .team(team)
                    .id("b" + i)
                    .content("item " + i)
                    .build());
        }
        // the put of item b3 fails as a network fault would, after the SDK has given up on it
        ExecutionInterceptor faultOnB3 = new ExecutionInterceptor() {
            @Override
            public void beforeExecution(Context.BeforeExecution context, ExecutionAttributes attributes) {
                if (context.request() instanceof PutItemRequest put
                        && put.item().containsKey("id")
                        && "b3".equals(put.item().get("id").s())) {
                    throw SdkClientException.create("injected fault on item b3");
                }
            }
        };
        try (DynamoDbClient faulty = Dynalite.client(faultOnB3)) {
            Map<Id, CairnException> failed = new DynamoDbMemoryStore(faulty, "cairn-memories").insertEach(batch);

            assertThat(failed).containsOnlyKeys(new Id("b3"));
            assertThat(failed.get(new Id("b3"))).isInstanceOf(StoreUnavailable.class);
        }
        // read back through a client without the fault: exactly what the answer said was written is there
        for (Memory m : batch) {
            assertThat(store.get(team, m.id()))
                    .as(m.id().value())
                    .isEqualTo(m.id().value().equals("b3") ? Optional.empty() : Optional.of(m));
        }
    }

    @Test
    void aBatchWithAnExistingIdInTheMiddle_shouldStoreTheRest_andNotTouchTheExistingOne() {
        Id team = new Id("cond" + System.nanoTime());
        Memory existing =
                Memories.memory().team(team).id("b2").content("already here").build();
        store.insertAll(List.of(existing));
        List<Memory> batch = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            batch.add(Memories.memory()
                    .team(team)
                    .id("b" + i)
                    .content("item " + i)
                    .build());
        }

        Map<Id, CairnException> failed = store.insertEach(batch);

        assertThat(failed).containsOnlyKeys(new Id("b2"));
        assertThat(failed.get(new Id("b2"))).isInstanceOf(VersionConflict.class);
        assertThat(store.get(team, new Id("b2"))).contains(existing);
        assertThat(store.getAll(team, batch.stream().map(Memory::id).toList()))
                .extracting(m -> m.content())
                .containsExactlyInAnyOrder("item 0", "item 1", "already here", "item 3", "item 4");
    }
}
