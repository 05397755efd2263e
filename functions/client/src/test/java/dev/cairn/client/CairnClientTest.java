package dev.cairn.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The client against a real HTTP server (the JDK's) that answers from a script: what goes on the wire, how answers
 * and problem documents are read, and when and how long the client waits before sending again. The waits are
 * recorded, not slept.
 */
class CairnClientTest {

    record Answer(int status, Map<String, String> headers, String body) {}

    record Seen(String method, String path, Map<String, String> headers, String body) {}

    private HttpServer server;
    private final Deque<Answer> script = new ArrayDeque<>();
    private final List<Seen> seen = new ArrayList<>();
    private final List<Duration> waits = new ArrayList<>();
    private CairnClient client;

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            synchronized (seen) {
                seen.add(new Seen(
                        exchange.getRequestMethod(),
                        exchange.getRequestURI().getRawPath()
                                + (exchange.getRequestURI().getRawQuery() == null
                                        ? ""
                                        : "?" + exchange.getRequestURI().getRawQuery()),
                        Map.of(
                                "authorization",
                                String.valueOf(exchange.getRequestHeaders().getFirst("Authorization")),
                                "if-match",
                                String.valueOf(exchange.getRequestHeaders().getFirst("If-Match")),
                                "content-type",
                                String.valueOf(exchange.getRequestHeaders().getFirst("Content-Type"))),
                        body));
            }
            Answer a = script.isEmpty() ? new Answer(500, Map.of(), "script ran out") : script.poll();
            a.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
            byte[] out = a.body().getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(a.status(), out.length == 0 ? -1 : out.length);
            if (out.length > 0) {
                exchange.getResponseBody().write(out);
            }
            exchange.close();
        });
        server.start();
        client = CairnClient.builder(
                        URI.create("http://127.0.0.1:" + server.getAddress().getPort()))
                .token("tok")
                .sleeper(waits::add)
                .clock(Clock.fixed(Instant.parse("2026-12-02T10:00:00Z"), ZoneOffset.UTC))
                .build();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private void answer(int status, String body, Map<String, String> headers) {
        script.add(new Answer(status, headers, body));
    }

    private void answer(int status, String body) {
        answer(status, body, Map.of("Content-Type", "application/json"));
    }

    @Test
    void aSyncDelta_shouldGoOutInTheSeedsSnakeCaseShape_andTheAnswerShouldBeTyped() {
        answer(200, "{\"status\":\"applied\",\"version\":13,\"rebased_from\":11,\"new_member\":true}");
        Sync.Result r = client.sync(
                "team_abc",
                new Sync.Request(
                        "user_1",
                        12,
                        null,
                        List.of(new Sync.Op("upsert", "f1", 13L, "...", null, null, null), Sync.Op.delete("f2"))));
        assertThat(r.applied()).isTrue();
        assertThat(r.version()).isEqualTo(13);
        assertThat(r.rebasedFrom()).isEqualTo(11);
        Seen s = seen.get(0);
        assertThat(s.method()).isEqualTo("POST");
        assertThat(s.path()).isEqualTo("/v1/teams/team_abc/sync");
        assertThat(s.headers()).containsEntry("authorization", "Bearer tok");
        assertThat(s.body())
                .isEqualTo(
                        "{\"client_id\":\"user_1\",\"base_version\":12,\"delta\":[{\"op\":\"upsert\","
                                + "\"fact_id\":\"f1\",\"version\":13,\"content\":\"...\"},{\"op\":\"delete\",\"fact_id\":\"f2\"}]}");
    }

    @Test
    void a503WithRetryAfterSeconds_thenA429WithAnHttpDate_shouldWaitAsToldAndSucceed() {
        answer(503, "{\"status\":503,\"detail\":\"busy\"}", Map.of("Retry-After", "3"));
        answer(
                429,
                "{\"status\":429,\"detail\":\"slow down\"}",
                Map.of("Retry-After", "Wed, 02 Dec 2026 10:00:07 GMT"));
        answer(200, "{\"version\":4,\"changes\":[],\"next_since\":null}");
        Sync.Changes c = client.changes("acme", 4, 100);
        assertThat(c.version()).isEqualTo(4);
        assertThat(waits).containsExactly(Duration.ofSeconds(3), Duration.ofSeconds(7));
        assertThat(seen)
                .hasSize(3)
                .allSatisfy(s -> assertThat(s.path()).isEqualTo("/v1/teams/acme/changes?since=4&limit=100"));
    }

    @Test
    void withoutRetryAfter_theWaitsShouldBackOffWithinTheirCaps_andTheLastAnswerIsThrown() {
        for (int i = 0; i < 5; i++) {
            answer(
                    503,
                    "{\"type\":\"https://cairn.dev/problems/store-unavailable\",\"title\":\"Store unavailable\","
                            + "\"status\":503,\"detail\":\"the record store is unavailable right now\"}");
        }
        assertThatThrownBy(() -> client.recall("acme", Memories.RecallRequest.of("q", 3)))
                .isInstanceOfSatisfying(CairnApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(503);
                    assertThat(e.detail()).isEqualTo("the record store is unavailable right now");
                });
        assertThat(seen).hasSize(5); // maxAttempts
        assertThat(waits).hasSize(4);
        long[] caps = {200, 400, 800, 1600};
        for (int i = 0; i < waits.size(); i++) {
            assertThat(waits.get(i)).isBetween(Duration.ZERO, Duration.ofMillis(caps[i]));
        }
    }

    @Test
    void aProblemDocument_shouldBeAnExceptionWithItsDetailAndFieldErrors_withoutARetry() {
        answer(
                400,
                "{\"type\":\"https://cairn.dev/problems/invalid-request\",\"title\":\"Invalid request\",\"status\":400,"
                        + "\"detail\":\"delta[0].version is 0 but must be base_version + 1 = 1\","
                        + "\"errors\":[{\"field\":\"delta[0].version\",\"message\":\"is 0 but must be 1\"}]}",
                Map.of("Content-Type", "application/problem+json"));
        assertThatThrownBy(() -> client.sync("acme", new Sync.Request("c", 0, "k", List.of(Sync.Op.delete("f")))))
                .isInstanceOfSatisfying(CairnApiException.class, e -> {
                    assertThat(e.status()).isEqualTo(400);
                    assertThat(e.getMessage()).contains("must be base_version + 1 = 1");
                    assertThat(e.errors())
                            .containsExactly(
                                    new CairnApiException.FieldError("delta[0].version", "is 0 but must be 1"));
                });
        assertThat(seen).hasSize(1);
        assertThat(waits).isEmpty();
    }

    @Test
    void a409SyncConflict_shouldCarryEachConflictWithBothValues() {
        answer(
                409,
                "{\"type\":\"https://cairn.dev/problems/sync-conflict\",\"title\":\"Sync conflict\",\"detail\":\"1 fact(s)"
                        + " changed\",\"status\":\"conflict\",\"current_version\":7,\"conflicts\":[{\"fact_id\":\"db\","
                        + "\"base_version\":5,\"current\":{\"fact_id\":\"db\",\"version\":6,\"deleted\":false,\"content\":"
                        + "\"PostgreSQL\",\"type\":\"fact\",\"tags\":[],\"confidence\":1.0,\"memory_id\":\"tfabc\"},"
                        + "\"proposed\":{\"op\":\"upsert\",\"fact_id\":\"db\",\"version\":6,\"content\":\"MySQL\"}}]}",
                Map.of("Content-Type", "application/problem+json"));
        assertThatThrownBy(() -> client.sync(
                        "acme", new Sync.Request("c", 5, null, List.of(Sync.Op.upsert("db", "MySQL", null)))))
                .isInstanceOfSatisfying(SyncConflictException.class, e -> {
                    assertThat(e.currentVersion()).isEqualTo(7);
                    assertThat(e.conflicts()).singleElement().satisfies(c -> {
                        assertThat(c.current().content()).isEqualTo("PostgreSQL");
                        assertThat(c.proposed().content()).isEqualTo("MySQL");
                        assertThat(c.baseVersion()).isEqualTo(5);
                    });
                });
    }

    @Test
    void aPatch_shouldSendIfMatch_andADeleteWithoutVersionNone() {
        answer(
                200,
                "{\"id\":\"01j\",\"team\":\"acme\",\"scope\":\"team\",\"type\":\"fact\",\"content\":\"new\",\"tags\":[],"
                        + "\"importance\":0.5,\"confidence\":1.0,\"version\":3,\"state\":\"active\"}");
        answer(204, "", Map.of());
        assertThat(client.patchMemory("acme", "01j", 2, Memories.Changes.content("new"))
                        .version())
                .isEqualTo(3);
        client.deleteMemory("acme", "01j", null);
        assertThat(seen.get(0).headers()).containsEntry("if-match", "\"2\"");
        assertThat(seen.get(0).body()).isEqualTo("{\"content\":\"new\"}");
        assertThat(seen.get(1).method()).isEqualTo("DELETE");
        assertThat(seen.get(1).headers()).containsEntry("if-match", "null");
    }

    @Test
    void anIdThatIsNotAPathSegment_shouldStayInsideItsSegment() {
        answer(404, "{\"status\":404,\"detail\":\"memory x was not found\"}");
        assertThatThrownBy(() -> client.getMemory("acme", "../../admin")).isInstanceOf(CairnApiException.class);
        assertThat(seen.get(0).path()).isEqualTo("/v1/teams/acme/memories/..%2F..%2Fadmin");
    }

    @Test
    void retryAfter_shouldReadSecondsAndHttpDates_andIgnoreAnythingElse() {
        Instant now = Instant.parse("2026-12-02T10:00:00Z");
        assertThat(CairnClient.retryAfter("120", now)).isEqualTo(Duration.ofSeconds(120));
        assertThat(CairnClient.retryAfter("Wed, 02 Dec 2026 10:01:00 GMT", now)).isEqualTo(Duration.ofSeconds(60));
        assertThat(CairnClient.retryAfter("Wed, 02 Dec 2026 09:00:00 GMT", now)).isEqualTo(Duration.ZERO);
        assertThat(CairnClient.retryAfter("soon", now)).isNull();
        assertThat(CairnClient.retryAfter("-5", now)).isNull();
    }

    @Test
    void aRefusedConnection_shouldNameTheServersAddressAndTheCause_notSayNull() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort(); // free again once closed: nothing listens there
        }
        CairnClient c = CairnClient.builder(java.net.URI.create("http://127.0.0.1:" + closed))
                .token("t")
                .build();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> c.changes("acme", 0, 10))
                .isInstanceOf(java.io.UncheckedIOException.class)
                .hasMessageContaining("http://127.0.0.1:" + closed + "/v1/teams/acme/changes")
                .hasMessageNotContaining("null")
                .hasMessageContaining("ConnectException");
    }
}
