package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionMessage;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The OpenAI-compatible client and extractor against a local HTTP server that plays back recorded answers
 * ({@code src/test/resources/openai/}): structured output parsed and validated, retries with backoff on a 500, a
 * timeout and malformed JSON, no retry on a 401, and {@link StoreUnavailable} when no attempt succeeds.
 */
class OpenAiChatTest {

    /** What the stand-in answers next: a status, a body, an optional delay. */
    private record Reply(int status, String body, long delayMs) {}

    private HttpServer server;
    private final Deque<Reply> replies = new ArrayDeque<>();
    private final List<String> requests = new ArrayList<>();
    private final List<String> authorizations = new ArrayList<>();

    @BeforeEach
    void start() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                requests.add(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
            authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
            Reply r;
            synchronized (replies) {
                r = replies.isEmpty() ? new Reply(500, "{}", 0) : replies.poll();
            }
            try {
                Thread.sleep(r.delayMs());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] body = r.body().getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            try {
                exchange.sendResponseHeaders(r.status(), body.length);
                exchange.getResponseBody().write(body);
            } catch (IOException e) {
                // the client gave up waiting (the timeout test): nothing to answer
            }
            exchange.close();
        });
        server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    private OpenAiChat chat(int attempts, Duration timeout, Optional<String> key) {
        return new OpenAiChat(
                java.net.http.HttpClient.newHttpClient(),
                "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/",
                "qwen2.5:7b",
                key,
                timeout,
                attempts,
                Duration.ofMillis(20));
    }

    private static String recorded(String name) throws IOException {
        try (InputStream in = OpenAiChatTest.class.getResourceAsStream("/openai/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static List<SessionMessage> conversation() {
        return List.of(
                message(
                        1,
                        SessionMessage.Role.USER,
                        "I always prefer Kotlin over Java for new services, please remember that."),
                message(2, SessionMessage.Role.ASSISTANT, "Noted: Kotlin for new services."),
                message(
                        3,
                        SessionMessage.Role.USER,
                        "Our team convention is that every API returns RFC 9457 problem details on errors."),
                message(4, SessionMessage.Role.USER, "The staging DB password is hunter2, by the way."));
    }

    private static SessionMessage message(long seq, SessionMessage.Role role, String text) {
        return new SessionMessage(new Id("m" + seq), seq, role, text, Instant.parse("2026-01-01T00:00:00Z"));
    }

    @Test
    void extract_shouldKeepOnlyValidatedProposals_whenTheModelAnswersWithStructuredJson() throws Exception {
        replies.add(new Reply(200, recorded("extraction-ok.json"), 0));
        OpenAiFactExtractor extractor = new OpenAiFactExtractor(
                chat(3, Duration.ofSeconds(5), Optional.of("sk-local")), SecretScanner.bundled());

        FactExtractor.Extraction x = extractor.extract(conversation());

        assertThat(x.facts())
                .extracting(FactExtractor.Fact::type)
                .containsExactly(MemoryType.PREFERENCE, MemoryType.CONVENTION);
        assertThat(x.facts()).extracting(FactExtractor.Fact::scope).containsExactly(Scope.USER, Scope.TEAM);
        assertThat(x.facts().get(0).evidence()).extracting(m -> m.id().value()).containsExactly("m1");
        assertThat(x.facts().get(0).explicit()).isTrue();
        // the password the model echoed, a made-up type and evidence pointing at the assistant are not kept
        assertThat(x.skipped())
                .extracting(FactExtractor.Skipped::reason)
                .contains("secret", "invalid: type 'opinion'", "no evidence in the user's messages");
        assertThat(x.skipped()).extracting(FactExtractor.Skipped::text).noneMatch(t -> t.contains("hunter2"));
        JsonNode sent = new ObjectMapper().readTree(requests.get(0));
        assertThat(sent.path("model").asText()).isEqualTo("qwen2.5:7b");
        assertThat(sent.path("response_format").path("type").asText()).isEqualTo("json_schema");
        assertThat(sent.path("response_format")
                        .path("json_schema")
                        .path("schema")
                        .path("required"))
                .extracting(JsonNode::asText)
                .containsExactly("facts", "skipped");
        assertThat(sent.path("messages").path(1).path("content").asText()).contains("3. [user] Our team convention");
        assertThat(authorizations).containsExactly("Bearer sk-local");
    }

    @Test
    void structured_shouldRetryAndSucceed_whenTheFirstAnswerIsA500() throws Exception {
        replies.add(new Reply(500, "{\"error\":\"overloaded\"}", 0));
        replies.add(new Reply(200, recorded("extraction-ok.json"), 0));

        JsonNode answer = chat(3, Duration.ofSeconds(5), Optional.empty()).structured("i", "s", "{}", "input");

        assertThat(answer.path("facts").size()).isEqualTo(5);
        assertThat(requests).hasSize(2);
        assertThat(authorizations).containsOnlyNulls();
    }

    @Test
    void structured_shouldThrowStoreUnavailable_whenEveryAnswerIsMalformedJson() throws Exception {
        replies.add(new Reply(200, recorded("extraction-malformed.json"), 0));
        replies.add(new Reply(200, recorded("extraction-malformed.json"), 0));

        assertThatThrownBy(
                        () -> chat(2, Duration.ofSeconds(5), Optional.empty()).structured("i", "s", "{}", "x"))
                .isInstanceOf(StoreUnavailable.class)
                .hasMessageContaining("malformed JSON");
        assertThat(requests).hasSize(2);
    }

    @Test
    void structured_shouldThrowStoreUnavailable_whenTheServerKeepsAnswering500() {
        assertThatThrownBy(
                        () -> chat(3, Duration.ofSeconds(5), Optional.empty()).structured("i", "s", "{}", "x"))
                .isInstanceOf(StoreUnavailable.class)
                .hasMessageContaining("HTTP 500");
        assertThat(requests).hasSize(3);
    }

    @Test
    void structured_shouldGiveUpAfterTheTimeout_whenTheModelIsTooSlow() throws Exception {
        replies.add(new Reply(200, recorded("extraction-ok.json"), 2000));
        replies.add(new Reply(200, recorded("extraction-ok.json"), 2000));

        long start = System.nanoTime();
        assertThatThrownBy(
                        () -> chat(2, Duration.ofMillis(300), Optional.empty()).structured("i", "s", "{}", "x"))
                .isInstanceOf(StoreUnavailable.class)
                .hasMessageContaining("HttpTimeoutException");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1900));
    }

    @Test
    void structured_shouldNotRetry_whenTheServerRefusesTheKey() {
        replies.add(new Reply(401, "{\"error\":\"invalid api key\"}", 0));

        assertThatThrownBy(() ->
                        chat(3, Duration.ofSeconds(5), Optional.of("wrong")).structured("i", "s", "{}", "x"))
                .isInstanceOf(StoreUnavailable.class)
                .hasMessageContaining("HTTP 401");
        assertThat(requests).hasSize(1);
    }

    @Test
    void fold_shouldFallBackToTheExtractiveSummary_whenTheModelIsDown() {
        OpenAiSummarizer summarizer = new OpenAiSummarizer(chat(1, Duration.ofSeconds(5), Optional.empty()));

        String summary = summarizer.fold("", conversation().subList(0, 3), 2000);

        assertThat(summary).contains("Kotlin").contains("RFC 9457");
    }

    @Test
    void fold_shouldUseTheModelsSummary_whenItFitsTheBudget() {
        replies.add(new Reply(
                200,
                "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":"
                        + "\"```json\\n{\\\"summary\\\": \\\"Alice prefers Kotlin; APIs return RFC 9457 errors.\\\"}\\n```\"}}]}",
                0));
        OpenAiSummarizer summarizer = new OpenAiSummarizer(chat(1, Duration.ofSeconds(5), Optional.empty()));

        assertThat(summarizer.fold("", conversation(), 2000))
                .isEqualTo("Alice prefers Kotlin; APIs return RFC 9457 errors.");
    }
}
