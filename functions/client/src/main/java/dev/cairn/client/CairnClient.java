package dev.cairn.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A typed client of Cairn's HTTP API (API.md): memories, recall, sessions, the tool cache and team sync, against a
 * local server or the AWS deployment alike. Thread-safe; one per process is enough.
 *
 * <p><b>Retries.</b> 429 and 503 mean "not now": the call is sent again after the answer's {@code Retry-After}
 * (seconds or an HTTP date) or, without one, after an exponential backoff with full jitter, up to
 * {@link Retries#maxAttempts} attempts. Every other error answer is thrown at once as a {@link CairnApiException}
 * carrying the problem's {@code detail}; a sync conflict as a {@link SyncConflictException}. A connection failure is
 * thrown as {@link java.io.UncheckedIOException}: whether a write reached the server is unknown then, and only the
 * caller knows whether repeating it is safe (team sync's deltas are: a retry is recognised).
 */
public final class CairnClient {

    /** How often and how long to wait on 429/503. */
    public record Retries(int maxAttempts, Duration initialBackoff, Duration maxBackoff, Duration maxRetryAfter) {

        public Retries {
            if (maxAttempts < 1) {
                throw new IllegalArgumentException("maxAttempts must be 1 or more");
            }
        }

        public static Retries defaults() {
            return new Retries(5, Duration.ofMillis(200), Duration.ofSeconds(10), Duration.ofSeconds(60));
        }
    }

    /** Waits between attempts; tests pass one that records the waits instead of sleeping. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration d) throws InterruptedException;
    }

    static final ObjectMapper JSON = JsonMapper.builder()
            .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
            // new members the server adds (API.md: extend, never break) must not break old clients
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .build();

    private final URI base;
    private final String token;
    private final HttpClient http;
    private final Retries retries;
    private final Sleeper sleeper;
    private final Clock clock;
    private final Duration timeout;

    private CairnClient(Builder b) {
        String url = b.baseUrl.toString();
        this.base = URI.create(url.endsWith("/") ? url : url + "/");
        this.token = Objects.requireNonNull(b.token, "token");
        this.http = b.http != null
                ? b.http
                : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        this.retries = b.retries;
        this.sleeper = b.sleeper;
        this.clock = b.clock;
        this.timeout = b.timeout;
    }

    public static Builder builder(URI baseUrl) {
        return new Builder(baseUrl);
    }

    public static final class Builder {
        private final URI baseUrl;
        private String token;
        private HttpClient http;
        private Retries retries = Retries.defaults();
        private Sleeper sleeper = d -> Thread.sleep(d.toMillis());
        private Clock clock = Clock.systemUTC();
        private Duration timeout = Duration.ofSeconds(60);

        private Builder(URI baseUrl) {
            this.baseUrl = Objects.requireNonNull(baseUrl, "baseUrl");
        }

        /** The bearer token (a JWT: {@code java -jar … token --user u --team t} mints one for a local server). */
        public Builder token(String token) {
            this.token = token;
            return this;
        }

        public Builder httpClient(HttpClient http) {
            this.http = http;
            return this;
        }

        public Builder retries(Retries retries) {
            this.retries = Objects.requireNonNull(retries);
            return this;
        }

        public Builder sleeper(Sleeper sleeper) {
            this.sleeper = Objects.requireNonNull(sleeper);
            return this;
        }

        public Builder clock(Clock clock) {
            this.clock = Objects.requireNonNull(clock);
            return this;
        }

        public Builder timeout(Duration timeout) {
            this.timeout = Objects.requireNonNull(timeout);
            return this;
        }

        public CairnClient build() {
            return new CairnClient(this);
        }
    }

    // ---- memories

    public Memories.Memory createMemory(String team, Memories.NewMemory memory) {
        return send("POST", teamPath(team, "memories"), memory, Memories.Memory.class);
    }

    public Memories.Memory getMemory(String team, String id) {
        return send("GET", teamPath(team, "memories/" + seg(id)), null, Memories.Memory.class);
    }

    /** Changes a memory if it is still at {@code version} (If-Match); 412 otherwise. */
    public Memories.Memory patchMemory(String team, String id, long version, Memories.Changes changes) {
        return send(
                "PATCH",
                teamPath(team, "memories/" + seg(id)),
                changes,
                Memories.Memory.class,
                Map.of("If-Match", "\"" + version + "\""));
    }

    /** Deletes a memory; with {@code version} non-null only if it is still at that version. */
    public void deleteMemory(String team, String id, Long version) {
        send(
                "DELETE",
                teamPath(team, "memories/" + seg(id)),
                null,
                Void.class,
                version == null ? Map.of() : Map.of("If-Match", "\"" + version + "\""));
    }

    /** One page of memories; {@code query} holds any of scope, type, tag, order, limit, cursor. */
    public Memories.Page listMemories(String team, Map<String, String> query) {
        return send("GET", teamPath(team, "memories") + query(query), null, Memories.Page.class);
    }

    public Memories.RecallResults recall(String team, Memories.RecallRequest request) {
        return send("POST", teamPath(team, "recall"), request, Memories.RecallResults.class);
    }

    // ---- sessions

    public Sessions.Accepted appendMessage(String team, String session, Sessions.Message message) {
        return send("POST", sessionPath(team, session, "messages"), message, Sessions.Accepted.class);
    }

    public JsonNode session(String team, String session) {
        return send("GET", sessionPath(team, session, ""), null, JsonNode.class);
    }

    public Sessions.Context context(String team, String session, String query, Integer maxTokens) {
        Map<String, String> q = new java.util.LinkedHashMap<>();
        if (query != null) {
            q.put("query", query);
        }
        if (maxTokens != null) {
            q.put("max_tokens", maxTokens.toString());
        }
        return send("GET", sessionPath(team, session, "context") + query(q), null, Sessions.Context.class);
    }

    public Sessions.Ended endSession(String team, String session) {
        return send("POST", sessionPath(team, session, "end"), Map.of(), Sessions.Ended.class);
    }

    // ---- tool cache

    public Sessions.Stored putToolResult(String team, String session, Sessions.ToolResult entry) {
        return send("PUT", sessionPath(team, session, "tool-cache"), entry, Sessions.Stored.class);
    }

    public Sessions.Lookup lookupToolResult(
            String team, String session, String tool, JsonNode params, Sessions.Validator validator) {
        Map<String, Object> body = new java.util.LinkedHashMap<>();
        body.put("tool", tool);
        body.put("params", params);
        if (validator != null) {
            body.put("validator", validator);
        }
        return send("POST", sessionPath(team, session, "tool-cache:lookup"), body, Sessions.Lookup.class);
    }

    public long invalidateToolCache(String team, String session, String toolPrefix) {
        String q = toolPrefix == null ? "" : query(Map.of("tool_prefix", toolPrefix));
        return send("DELETE", sessionPath(team, session, "tool-cache") + q, null, Sessions.Invalidated.class)
                .invalidated();
    }

    // ---- team sync

    /**
     * Sends a delta. 409 (the reject policy found facts changed after the base) is a {@link SyncConflictException}:
     * pull {@link #changes}, merge, and send again.
     */
    public Sync.Result sync(String team, Sync.Request request) {
        return send("POST", teamPath(team, "sync"), request, Sync.Result.class);
    }

    public Sync.Changes changes(String team, long since, Integer limit) {
        Map<String, String> q = new java.util.LinkedHashMap<>();
        q.put("since", Long.toString(since));
        if (limit != null) {
            q.put("limit", limit.toString());
        }
        return send("GET", teamPath(team, "changes") + query(q), null, Sync.Changes.class);
    }

    /** {@code GET …/conflicts}: the team's conflict records, open and settled (keep_both queues, overwrites). */
    public List<Sync.QueuedConflict> conflicts(String team) {
        return conflicts(team, null, null);
    }

    /** Only the conflicts with {@code status} and proposed by {@code clientId} (either may be null: any). */
    public List<Sync.QueuedConflict> conflicts(String team, String status, String clientId) {
        Map<String, String> q = new java.util.LinkedHashMap<>();
        if (status != null) {
            q.put("status", status);
        }
        if (clientId != null) {
            q.put("client_id", clientId);
        }
        return send("GET", teamPath(team, "conflicts") + (q.isEmpty() ? "" : query(q)), null, Sync.ConflictList.class)
                .conflicts();
    }

    /** Resolves an open conflict: {@code keep_current}, {@code take_proposed}, or {@code merge} with content. */
    public Sync.QueuedConflict resolve(String team, String conflictId, String resolution, String content) {
        return send(
                "POST",
                teamPath(team, "conflicts/" + conflictId + ":resolve"),
                new Sync.Resolve(resolution, content),
                Sync.QueuedConflict.class);
    }

    // ---- plumbing

    /** An I/O failure in words: the first message in its chain, or its kinds when none has one. */
    static String describe(Throwable e) {
        String kinds = e.getClass().getSimpleName();
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getMessage();
            }
            if (t != e && !kinds.endsWith(t.getClass().getSimpleName())) {
                kinds += " (" + t.getClass().getSimpleName() + ")";
            }
        }
        return kinds + (e instanceof java.net.ConnectException ? ": is the server running at this address?" : "");
    }

    private <T> T send(String method, String path, Object body, Class<T> type) {
        return send(method, path, body, type, Map.of());
    }

    private <T> T send(String method, String path, Object body, Class<T> type, Map<String, String> headers) {
        byte[] payload;
        try {
            payload = body == null ? null : JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("the request body cannot be written as JSON: " + e.getMessage(), e);
        }
        HttpRequest.Builder rb = HttpRequest.newBuilder(base.resolve(path))
                .timeout(timeout)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json, application/problem+json");
        headers.forEach(rb::header);
        if (payload != null) {
            rb.header("Content-Type", "application/json");
        }
        HttpRequest request = rb.method(
                        method,
                        payload == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofByteArray(payload))
                .build();
        for (int attempt = 1; ; attempt++) {
            HttpResponse<byte[]> response;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException e) {
                // Java's client often has no message of its own for a refused connection ("failed: null")
                throw new java.io.UncheckedIOException(
                        method + " " + base.resolve(path) + " failed: " + describe(e), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted during " + method + " " + path, e);
            }
            int status = response.statusCode();
            if ((status == 429 || status == 503) && attempt < retries.maxAttempts()) {
                pause(wait(attempt, response), method, path);
                continue;
            }
            if (status >= 400) {
                throw error(status, response.body());
            }
            if (type == Void.class || response.body().length == 0) {
                return null;
            }
            try {
                return JSON.readValue(response.body(), type);
            } catch (IOException e) {
                throw new IllegalStateException(
                        method + " " + path + " answered " + status + " with a body that is not the expected JSON: "
                                + e.getMessage(),
                        e);
            }
        }
    }

    private void pause(Duration d, String method, String path) {
        try {
            sleeper.sleep(d);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting to retry " + method + " " + path, e);
        }
    }

    /**
     * The server's {@code Retry-After} when it sent one (capped by {@link Retries#maxRetryAfter}), else a backoff
     * with full jitter: a random wait up to {@code initial × 2^(attempt-1)}, at most {@code maxBackoff}, so clients
     * that failed together do not come back together.
     */
    Duration wait(int attempt, HttpResponse<?> response) {
        Duration asked = response.headers()
                .firstValue("Retry-After")
                .map(v -> retryAfter(v, clock.instant()))
                .orElse(null);
        if (asked != null) {
            return asked.compareTo(retries.maxRetryAfter()) > 0 ? retries.maxRetryAfter() : asked;
        }
        long cap = Math.min(
                retries.maxBackoff().toMillis(), retries.initialBackoff().toMillis() << Math.min(20, attempt - 1));
        return Duration.ofMillis(ThreadLocalRandom.current().nextLong(cap + 1));
    }

    /** {@code Retry-After}: delay-seconds or an HTTP-date (RFC 9110 § 10.2.3); null when it is neither. */
    static Duration retryAfter(String value, Instant now) {
        String v = value.trim();
        try {
            long seconds = Long.parseLong(v);
            return seconds < 0 ? null : Duration.ofSeconds(seconds);
        } catch (NumberFormatException e) {
            // not seconds: an HTTP date
        }
        try {
            Instant at =
                    ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            return at.isAfter(now) ? Duration.between(now, at) : Duration.ZERO;
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    static CairnApiException error(int status, byte[] body) {
        JsonNode node;
        try {
            node = body.length == 0 ? null : JSON.readTree(body);
        } catch (IOException e) {
            node = null;
        }
        if (node == null || !node.isObject()) {
            String text = new String(body, StandardCharsets.UTF_8);
            return new CairnApiException(
                    status,
                    null,
                    null,
                    text.isBlank()
                            ? "no problem document in the answer"
                            : text.substring(0, Math.min(300, text.length())),
                    List.of(),
                    null);
        }
        String type = text(node, "type");
        String title = text(node, "title");
        String detail = text(node, "detail");
        if (status == 409 && node.has("conflicts")) {
            List<Sync.Conflict> conflicts = new ArrayList<>();
            for (JsonNode c : node.get("conflicts")) {
                conflicts.add(JSON.convertValue(c, Sync.Conflict.class));
            }
            return new SyncConflictException(
                    type, title, detail, node.path("current_version").asLong(), conflicts, node);
        }
        List<CairnApiException.FieldError> errors = new ArrayList<>();
        for (JsonNode e : node.path("errors")) {
            errors.add(new CairnApiException.FieldError(text(e, "field"), text(e, "message")));
        }
        return new CairnApiException(status, type, title, detail, errors, node);
    }

    private static String text(JsonNode node, String field) {
        JsonNode v = node.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    private static String teamPath(String team, String rest) {
        return "v1/teams/" + seg(team) + "/" + rest;
    }

    private static String sessionPath(String team, String session, String rest) {
        return teamPath(team, "sessions/" + seg(session) + (rest.isEmpty() ? "" : "/" + rest));
    }

    /** Ids are sent as given (the server refuses what is not an id); encoding keeps a bad one from changing the path. */
    private static String seg(String id) {
        return URLEncoder.encode(Objects.requireNonNull(id), StandardCharsets.UTF_8)
                .replace("+", "%20");
    }

    private static String query(Map<String, String> params) {
        if (params == null || params.isEmpty()) {
            return "";
        }
        StringBuilder b = new StringBuilder("?");
        params.forEach((k, v) -> {
            if (b.length() > 1) {
                b.append('&');
            }
            b.append(URLEncoder.encode(k, StandardCharsets.UTF_8))
                    .append('=')
                    .append(URLEncoder.encode(v, StandardCharsets.UTF_8));
        });
        return b.toString();
    }
}
