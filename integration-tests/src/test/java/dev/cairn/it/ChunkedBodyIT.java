package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A body sent in chunks (no Content-Length: what a client streaming a generated batch sends) is read like any other,
 * and one over the server's body limit gets the same 413 problem as a declared length, not the HTTP layer's bare 413.
 */
@ExtendWith(SharedServer.class)
class ChunkedBodyIT {

    private static final String TEAM = "chunked";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();

    @Test
    void aChunkedBodyWithinTheLimitIsStored() throws Exception {
        byte[] body =
                "{\"content\":\"We deploy from the release branch every Tuesday\"}".getBytes(StandardCharsets.UTF_8);
        HttpResponse<String> r = post("/v1/teams/" + TEAM + "/memories", new ByteArrayInputStream(body));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        assertThat(JSON.readTree(r.body()).path("content").asText()).contains("release branch");
    }

    @Test
    void aChunkedBodyOverTheLimitGetsAProblemAndStoresNothing() throws Exception {
        // 25 MiB of a batch that never closes: over the local server's 24M limit, so it is refused while it is read
        InputStream head = new ByteArrayInputStream(
                "{\"memories\":[{\"content\":\"over the limit ".getBytes(StandardCharsets.UTF_8));
        InputStream filler = new InputStream() {
            private long left = 25L * 1024 * 1024;

            @Override
            public int read() {
                return left-- > 0 ? 'x' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left <= 0) {
                    return -1;
                }
                int n = (int) Math.min(len, left);
                java.util.Arrays.fill(b, off, off + n, (byte) 'x');
                left -= n;
                return n;
            }
        };
        HttpResponse<String> r = post(
                "/v1/teams/" + TEAM + "/memories:batch",
                new SequenceInputStream(Collections.enumeration(List.of(head, filler))));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(413);
        assertThat(r.headers().firstValue("Content-Type"))
                .hasValueSatisfying(t -> assertThat(t).startsWith("application/problem+json"));
        JsonNode problem = JSON.readTree(r.body());
        assertThat(problem.path("status").asInt()).isEqualTo(413);
        assertThat(problem.path("detail").asText())
                .contains("no Content-Length")
                .contains("max-body-size");
        assertThat(SharedServer.contentsSeenBy("alice", TEAM)).noneMatch(c -> c.contains("over the limit"));
    }

    @Test
    void aBodyWithItsLengthOverH2cAndOverHttp1_isStoredAlike() throws Exception {
        // Java's client upgrades a plain-text connection to HTTP/2 (h2c) unless told not to: the read-ahead of a
        // declared body on the event loop is HTTP/1's only, and had made this a 500 ("Request has already been read")
        for (HttpClient.Version version : List.of(HttpClient.Version.HTTP_2, HttpClient.Version.HTTP_1_1)) {
            HttpClient client = HttpClient.newBuilder().version(version).build();
            for (int i = 0; i < 3; i++) { // the first request carries the upgrade, the next ones run on the stream
                String content = "Release notes are written by the on-call engineer, " + version + " " + i;
                HttpRequest request = HttpRequest.newBuilder(
                                URI.create(SharedServer.server().baseUrl() + "/v1/teams/" + TEAM + "/memories"))
                        .header(
                                "Authorization",
                                "Bearer " + SharedServer.server().token("alice", TEAM))
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(
                                JSON.writeValueAsString(java.util.Map.of("content", content))))
                        .build();
                HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());

                assertThat(r.statusCode()).as(version + " " + r.body()).isEqualTo(201);
                assertThat(JSON.readTree(r.body()).path("content").asText()).isEqualTo(content);
            }
        }
    }

    private static HttpResponse<String> post(String path, InputStream body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(
                        URI.create(SharedServer.server().baseUrl() + path))
                .header("Authorization", "Bearer " + SharedServer.server().token("alice", TEAM))
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(60))
                // a publisher of unknown length: the client sends Transfer-Encoding: chunked
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> body))
                .build();
        return HTTP.send(request, HttpResponse.BodyHandlers.ofString());
    }
}
