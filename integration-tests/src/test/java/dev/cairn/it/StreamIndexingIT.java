package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbStreamIndexing;
import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryPatch;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.testkit.Memories;
import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The DynamoDB Streams handler, fed Lambda-shaped stream events about memories written to dynalite, indexing into a
 * real OpenSearch node (dynalite has no Streams API, so the events are built here exactly as Lambda delivers them).
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class StreamIndexingIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static OnnxEmbedder embedder;

    private final String name = "stream-" + UUID.randomUUID().toString().substring(0, 8);
    private final Id team = new Id("streams");

    @BeforeAll
    static void loadModel() {
        embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
    }

    private Memory memory(String id, String content) {
        return Memories.memory()
                .id(id)
                .team(team)
                .content(content)
                .confidence(0.9)
                .createdAt(Instant.parse("2026-11-29T00:00:00Z"))
                .build();
    }

    private static ObjectNode record(String eventName, String seq, String pk, String sk) {
        ObjectNode r = JSON.createObjectNode();
        r.put("eventName", eventName).put("eventSource", "aws:dynamodb");
        ObjectNode ddb = r.putObject("dynamodb");
        ddb.putObject("Keys")
                .<ObjectNode>set("pk", JSON.createObjectNode().put("S", pk))
                .set("sk", JSON.createObjectNode().put("S", sk));
        ddb.put("SequenceNumber", seq).put("StreamViewType", "KEYS_ONLY");
        return r;
    }

    private JsonNode event(ObjectNode... records) {
        ObjectNode e = JSON.createObjectNode();
        ArrayNode rs = e.putArray("Records");
        for (ObjectNode r : records) {
            rs.add(r);
        }
        return e;
    }

    private List<String> recalled(VectorIndex index, String text) {
        return index
                .search(new VectorIndex.Search(
                        new VectorIndex.Filter(team, new Id("alice"), null, Set.of(), Set.of()),
                        embedder.embedQuery(text),
                        embedder.modelId(),
                        text,
                        10))
                .stream()
                .map(c -> c.id().value())
                .toList();
    }

    @Test
    void streamRecords_shouldIndexEachChangedMemory_atItsLatestVersion_whateverTheRecordsSay() {
        DynamoDbMemoryStore store = new DynamoDbMemoryStore(Dynalite.client(), name);
        store.createTableIfMissing();
        try (OpenSearchVectorIndex index = OpenSearchVectorIndex.plainHttp(
                URI.create(OpenSearchNode.url()), OpenSearchVectorIndex.Settings.localNode(name))) {
            Indexer indexer = new Indexer(store, index, embedder);
            Memory kept = memory("kept", "The staging cluster runs in eu-west-1");
            Memory changed = memory("changed", "Deploys happen on Tuesdays");
            Memory dropped = memory("dropped", "The old wiki lives on Confluence");
            store.insertAll(List.of(kept, changed, dropped));
            store.replace(changed.withChanges(
                    new MemoryPatch("Deploys happen on Thursdays", null, null, null, null, null, null, null)));
            store.delete(team, new Id("dropped"), 1);

            // the stream says INSERT for "changed" (a stale view) and names it twice; one record is not a memory
            DynamoDbStreamIndexing.Outcome outcome = new DynamoDbStreamIndexing(indexer)
                    .handle(event(
                            record("INSERT", "100", "T#streams", "M#kept"),
                            record("INSERT", "101", "T#streams", "M#changed"),
                            record("INSERT", "102", "T#streams", "M#dropped"),
                            record("MODIFY", "103", "T#streams", "M#changed"),
                            record("REMOVE", "104", "T#streams", "M#dropped"),
                            record("MODIFY", "105", "T#streams", "X#other")));

            assertThat(outcome.firstFailedSequenceNumber()).isNull();
            assertThat(outcome.response()).isEqualTo(java.util.Map.of("batchItemFailures", List.of()));
            // "dropped" was written and deleted: nothing to index, only its tombstone to purge
            assertThat(outcome.records()).isEqualTo(6);
            assertThat(store.pendingIndex(100)).noneMatch(w -> w.team().equals(team));
            assertThat(recalled(index, "Which region is staging in?"))
                    .contains("kept")
                    .doesNotContain("dropped");
            List<VectorIndex.Candidate> thursday = index.search(new VectorIndex.Search(
                    new VectorIndex.Filter(team, new Id("alice"), null, Set.of(), Set.of()),
                    embedder.embedQuery("x"),
                    embedder.modelId(),
                    "thursdays",
                    10));
            assertThat(thursday).anySatisfy(c -> {
                assertThat(c.id().value()).isEqualTo("changed");
                assertThat(c.lexical()).isPositive();
            });

            // a replay of the same batch (Lambda retries) finds nothing left to do
            DynamoDbStreamIndexing.Outcome replay = new DynamoDbStreamIndexing(indexer)
                    .handle(event(
                            record("INSERT", "100", "T#streams", "M#kept"),
                            record("MODIFY", "103", "T#streams", "M#changed")));
            assertThat(replay.indexed()).isZero();
        }
    }

    @Test
    void anIndexOutage_shouldReportTheFirstFailedRecord_andLeaveItPending() throws Exception {
        DynamoDbMemoryStore store = new DynamoDbMemoryStore(Dynalite.client(), name);
        store.createTableIfMissing();
        int closedPort = Processes.freePort();
        try (OpenSearchVectorIndex down = OpenSearchVectorIndex.plainHttp(
                URI.create("http://127.0.0.1:" + closedPort), OpenSearchVectorIndex.Settings.localNode(name))) {
            store.insertAll(List.of(memory("a", "first"), memory("b", "second")));
            DynamoDbStreamIndexing.Outcome outcome = new DynamoDbStreamIndexing(new Indexer(store, down, embedder))
                    .handle(event(
                            record("INSERT", "200", "T#streams", "M#a"), record("INSERT", "201", "T#streams", "M#b")));
            assertThat(outcome.firstFailedSequenceNumber()).isEqualTo("200");
            assertThat(outcome.response())
                    .isEqualTo(
                            java.util.Map.of("batchItemFailures", List.of(java.util.Map.of("itemIdentifier", "200"))));
            assertThat(store.pendingIndex(100))
                    .filteredOn(w -> w.team().equals(team))
                    .hasSize(2);
        }
    }
}
