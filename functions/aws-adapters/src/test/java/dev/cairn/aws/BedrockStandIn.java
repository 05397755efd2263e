package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;

/**
 * A local HTTP stand-in for Bedrock (which the build machines cannot reach): records every request (method, path,
 * signature, body) and answers with a recorded response from {@code src/test/resources/bedrock/}, or with an error.
 */
final class BedrockStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    record Recorded(String method, String path, String authorization, JsonNode body) {}

    private final HttpServer server;
    final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private volatile int status = 200;
    private volatile String answer = "{}";

    BedrockStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            requests.add(new Recorded(
                    exchange.getRequestMethod(),
                    exchange.getRequestURI().getRawPath(),
                    exchange.getRequestHeaders().getFirst("Authorization"),
                    JSON.readTree(body)));
            byte[] out = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            if (status != 200) {
                exchange.getResponseHeaders()
                        .add("x-amzn-ErrorType", status == 429 ? "ThrottlingException" : "InternalServerException");
            }
            exchange.sendResponseHeaders(status, out.length);
            exchange.getResponseBody().write(out);
            exchange.close();
        });
        server.start();
    }

    /** Answers every following request with the recorded response {@code name} (a file in resources/bedrock). */
    BedrockStandIn answering(String name) {
        try (InputStream in = getClass().getResourceAsStream("/bedrock/" + name)) {
            answer = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        status = 200;
        return this;
    }

    /** Answers every following request with an error of this status. */
    BedrockStandIn failing(int status, String message) {
        this.status = status;
        this.answer = "{\"message\":\"" + message + "\"}";
        return this;
    }

    /** A client as Cairn builds it: the SDK's standard retry mode. */
    BedrockRuntimeClient client() {
        return BedrockRuntimeClient.builder()
                .endpointOverride(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .region(Region.US_EAST_1)
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDTEST", "x")))
                .overrideConfiguration(c -> c.retryStrategy(RetryMode.STANDARD))
                .build();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
