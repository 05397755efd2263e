package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.StreamIndexerFunction;
import dev.cairn.model.id.Id;
import dev.cairn.model.testkit.Memories;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The Streams indexer's Lambda entry point, configured from environment variables as in AWS, on dynalite, a real
 * OpenSearch node and a Bedrock stand-in (a local HTTP server answering InvokeModel with a recorded Titan V2 reply).
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class StreamIndexerFunctionIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aStreamEvent_shouldIndexTheNamedMemory_throughTheLambdaEntryPoint() throws Exception {
        byte[] recorded = getClass().getResourceAsStream("/bedrock/titan-v2-256.json").readAllBytes();
        AtomicInteger invocations = new AtomicInteger();
        HttpServer bedrock = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        bedrock.createContext("/", exchange -> {
            exchange.getRequestBody().readAllBytes();
            boolean expected = exchange.getRequestURI().getRawPath()
                    .equals("/model/amazon.titan-embed-text-v2%3A0/invoke");
            if (expected) {
                invocations.incrementAndGet();
            }
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(expected ? 200 : 404, recorded.length);
            exchange.getResponseBody().write(recorded);
            exchange.close();
        });
        bedrock.start();
        String name = "fn-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            DynamoDbMemoryStore store = new DynamoDbMemoryStore(Dynalite.client(), name);
            store.createTableIfMissing();
            Id team = new Id("lambda");
            store.insertAll(List.of(Memories.memory().id("m1").team(team).content("Builds run on Graviton")
                    .confidence(0.9).createdAt(Instant.parse("2026-11-29T00:00:00Z")).build()));

            // the SDK's default credentials chain, as in Lambda (there from the execution role's variables)
            System.setProperty("aws.accessKeyId", "local");
            System.setProperty("aws.secretAccessKey", "local");
            StreamIndexerFunction function = new StreamIndexerFunction(Map.ofEntries(
                    Map.entry("CAIRN_AWS_REGION", "us-east-1"),
                    Map.entry("CAIRN_AWS_DYNAMODB_TABLE", name),
                    Map.entry("CAIRN_AWS_DYNAMODB_ENDPOINT", Dynalite.endpoint().toString()),
                    Map.entry("CAIRN_AWS_OPENSEARCH_URL", OpenSearchNode.url()),
                    Map.entry("CAIRN_AWS_OPENSEARCH_SIGNING", "none"),
                    Map.entry("CAIRN_AWS_OPENSEARCH_INDEX", name),
                    Map.entry("CAIRN_AWS_OPENSEARCH_ENGINE", "lucene"),
                    Map.entry("CAIRN_AWS_OPENSEARCH_DOCUMENT_IDS", "generated"),
                    Map.entry("CAIRN_AWS_OPENSEARCH_REFRESH", "true"),
                    Map.entry("CAIRN_AWS_BEDROCK_ENDPOINT", "http://127.0.0.1:" + bedrock.getAddress().getPort()),
                    Map.entry("CAIRN_AWS_BEDROCK_DIMENSIONS", "256")));
            String event = """
                    {"Records": [{"eventName": "INSERT", "eventSource": "aws:dynamodb",
                      "dynamodb": {"Keys": {"pk": {"S": "T#lambda"}, "sk": {"S": "M#m1"}},
                                   "SequenceNumber": "300", "StreamViewType": "KEYS_ONLY"}}]}
                    """;
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            function.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);

            JsonNode answer = JSON.readTree(out.toByteArray());
            assertThat(answer.path("batchItemFailures").isArray()).isTrue();
            assertThat(answer.path("batchItemFailures")).isEmpty();
            assertThat(invocations.get()).isEqualTo(1);
            assertThat(store.pendingIndex(100)).noneMatch(w -> w.team().equals(team));
            assertThat(store.indexWork(team, new Id("m1"))).isEmpty();
        } finally {
            bedrock.stop(0);
        }
    }
}
