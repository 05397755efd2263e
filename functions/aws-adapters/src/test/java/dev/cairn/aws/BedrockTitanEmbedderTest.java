package dev.cairn.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;

/**
 * Bedrock cannot be reached from the build machines, so its adapter talks to a local HTTP stand-in that records the
 * requests (path, signature header, body) and answers with a response in the documented Titan V2 shape
 * ({@code src/test/resources/bedrock/}).
 */
class BedrockTitanEmbedderTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private HttpServer server;
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String answer;

    record Recorded(String method, String path, String authorization, String contentType, JsonNode body) {}

    @BeforeEach
    void start() throws IOException {
        try (InputStream in = getClass().getResourceAsStream("/bedrock/titan-v2-256.json")) {
            answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            requests.add(new Recorded(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    exchange.getRequestHeaders().getFirst("Content-Type"),
                    JSON.readTree(body)));
            byte[] out = (status == 200
                            ? answer
                            : "{\"message\":\"Malformed input request: expected dimensions 256, 512 or 1024\"}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (status != 200) {
                exchange.getResponseHeaders().add("x-amzn-ErrorType", "ValidationException");
            }
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private BedrockRuntimeClient client() {
        return BedrockRuntimeClient.builder()
                .endpointOverride(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .region(Region.EU_WEST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "x")))
                .build();
    }

    @Test
    void embedQuery_shouldSendASignedTitanV2Request_andReadTheVector() {
        BedrockTitanEmbedder embedder = new BedrockTitanEmbedder(client(), 256);
        float[] v = embedder.embedQuery("what database does the team prefer?");

        assertThat(v).hasSize(256);
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        assertThat(Math.sqrt(norm)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-3));
        assertThat(embedder.modelId()).isEqualTo("titan-embed-text-v2-256");

        Recorded r = requests.get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/model/amazon.titan-embed-text-v2%3A0/invoke");
        assertThat(r.authorization())
                .startsWith("AWS4-HMAC-SHA256 Credential=AKIDTEST/")
                .contains("/eu-west-1/bedrock/aws4_request");
        assertThat(r.contentType()).isEqualTo("application/json");
        assertThat(r.body().get("inputText").asText()).isEqualTo("what database does the team prefer?");
        assertThat(r.body().get("dimensions").asInt()).isEqualTo(256);
        assertThat(r.body().get("normalize").asBoolean()).isTrue();
    }

    @Test
    void embedDocuments_shouldEmbedEachTextInOrder() {
        List<float[]> vectors = new BedrockTitanEmbedder(client(), 256).embedDocuments(List.of("one", "two"));
        assertThat(vectors).hasSize(2);
        assertThat(requests).extracting(r -> r.body().get("inputText").asText()).containsExactly("one", "two");
    }

    @Test
    void aVectorOfTheWrongSize_orAServiceError_shouldFailLoudly() {
        assertThatThrownBy(() -> new BedrockTitanEmbedder(client(), 512).embedQuery("x"))
                .hasMessageContaining("expected 512");
        status = 400;
        assertThatThrownBy(() -> new BedrockTitanEmbedder(client(), 256).embedQuery("x"))
                .hasMessageContaining("Malformed input request");
        assertThatThrownBy(() -> new BedrockTitanEmbedder(client(), 300)).hasMessageContaining("256, 512 or 1024");
    }
}
