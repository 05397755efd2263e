package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.testkit.Memories;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Streams indexer's packaged function ({@code functions/stream-indexer/target/function.zip}) started as Lambda's
 * Java runtime starts it and driven through the Lambda runtime API ({@link LambdaRuntime}), configured from
 * environment variables as in AWS, on dynalite, a real OpenSearch node and a Bedrock stand-in (a local HTTP server
 * answering InvokeModel with a recorded Titan V2 reply).
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class StreamIndexerFunctionIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The packaged function, as the stack deploys it. */
    static final Path PACKAGE = Path.of("../functions/stream-indexer/target/function.zip");

    static final String HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";

    @TempDir
    Path work;

    @Test
    void aStreamEvent_shouldIndexTheNamedMemory_throughThePackagedFunction() throws Exception {
        TitanStandIn bedrock = new TitanStandIn();
        String name = "fn-" + UUID.randomUUID().toString().substring(0, 8);
        try {
            DynamoDbMemoryStore store = new DynamoDbMemoryStore(Dynalite.client(), name);
            store.createTableIfMissing();
            Id team = new Id("lambda");
            store.insertAll(List.of(Memories.memory()
                    .id("m1")
                    .team(team)
                    .content("Builds run on Graviton")
                    .confidence(0.9)
                    .createdAt(Instant.parse("2026-11-29T00:00:00Z"))
                    .build()));

            String event = """
                    {"Records": [{"eventName": "INSERT", "eventSource": "aws:dynamodb",
                      "dynamodb": {"Keys": {"pk": {"S": "T#lambda"}, "sk": {"S": "M#m1"}},
                                   "SequenceNumber": "300", "StreamViewType": "KEYS_ONLY"}}]}
                    """;
            Map<String, String> env = LambdaRuntime.stackEnvironment(name, bedrock.endpoint());
            LambdaRuntime.Answer reply;
            String log;
            try (LambdaRuntime function = LambdaRuntime.start(PACKAGE, HANDLER, env, work)) {
                reply = function.invoke(event, Duration.ofSeconds(120));
                log = function.tail();
            }

            assertThat(reply.error()).as(reply.body()).isFalse();
            JsonNode answer = JSON.readTree(reply.body());
            assertThat(answer.path("batchItemFailures").isArray()).isTrue();
            assertThat(answer.path("batchItemFailures")).as(log).isEmpty();
            assertThat(bedrock.invocations()).isEqualTo(1);
            assertThat(store.pendingIndex(100)).noneMatch(w -> w.team().equals(team));
            assertThat(store.indexWork(team, new Id("m1"))).isEmpty();
        } finally {
            bedrock.close();
        }
    }
}
