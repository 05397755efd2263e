package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decay function's packaged {@code function.zip}, started as Lambda's Java runtime starts it ({@link LambdaRuntime})
 * with the stack's environment and its own handler ({@code DecayLambda}), answering the EventBridge schedule's event.
 * The schedule path looks its bean up programmatically, which only a real package shows: Quarkus' unused-bean removal
 * dropped it there while every in-process test (which injects it) kept it.
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class PackagedDecayJobIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path PACKAGE = Path.of("../functions/decay-job/target/function.zip");

    @TempDir
    Path work;

    @Test
    void theScheduleEvent_shouldRunAPass_inThePackagedFunction() throws Exception {
        String table = "decay-" + UUID.randomUUID().toString().substring(0, 8);
        try (TitanStandIn bedrock = new TitanStandIn()) {
            Map<String, String> env =
                    new java.util.HashMap<>(LambdaRuntime.stackEnvironment(table, bedrock.endpoint()));
            // the functions verify tokens at start-up configuration time; the schedule path needs no token
            env.put("CAIRN_AUTH_ISSUER", "https://issuer.test");
            env.put("CAIRN_AUTH_PUBLIC_KEY_LOCATION", "https://issuer.test/.well-known/jwks.json");
            LambdaRuntime.Answer answer;
            String log;
            try (LambdaRuntime function =
                    LambdaRuntime.start(PACKAGE, "dev.cairn.decay.DecayLambda::handleRequest", env, work)) {
                answer = function.invoke("{\"cairn\": \"decay-schedule\"}", Duration.ofSeconds(120));
                log = function.tail();
            }

            assertThat(answer.error()).as(answer.body() + "\n" + log).isFalse();
            JsonNode outcome = JSON.readTree(answer.body());
            assertThat(outcome.has("scanned")).as(answer.body()).isTrue();
            assertThat(outcome.path("scanned").asLong(-1)).isZero();
        }
    }
}
