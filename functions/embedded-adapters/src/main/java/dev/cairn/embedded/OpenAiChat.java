package dev.cairn.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.model.error.StoreUnavailable;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/**
 * One structured call to an OpenAI-compatible {@code POST /chat/completions}: a system message with the instructions,
 * a user message with the input, and {@code response_format: json_schema} (strict), so a server that supports
 * structured output constrains the model to the schema. The answer's content is parsed as JSON; anything else (no
 * choices, content that is not a JSON object) counts as a failed attempt.
 *
 * <p>Timeouts, 429, 5xx, connection failures and unreadable answers are retried with exponential backoff up to
 * {@code maxAttempts}; other 4xx (a wrong model name, a missing key) are not, since a retry cannot fix them. When no
 * attempt succeeds the call throws {@link StoreUnavailable}, which the HTTP edge answers with 503 — the caller has
 * changed nothing yet.
 */
public final class OpenAiChat {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final URI endpoint;
    private final String model;
    private final Optional<String> apiKey;
    private final Duration timeout;
    private final int maxAttempts;
    private final Duration backoff;

    public OpenAiChat(
            HttpClient http,
            String baseUrl,
            String model,
            Optional<String> apiKey,
            Duration timeout,
            int maxAttempts,
            Duration backoff) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("cairn.openai.max-attempts must be at least 1");
        }
        this.http = http;
        this.endpoint = URI.create(baseUrl.replaceAll("/+$", "") + "/chat/completions");
        this.model = model;
        this.apiKey = apiKey.filter(k -> !k.isBlank());
        this.timeout = timeout;
        this.maxAttempts = maxAttempts;
        this.backoff = backoff;
    }

    public static OpenAiChat of(OpenAiConfig config) {
        return new OpenAiChat(
                HttpClient.newBuilder().connectTimeout(config.timeout()).build(),
                config.baseUrl(),
                config.model(),
                config.apiKey(),
                config.timeout(),
                config.maxAttempts(),
                config.backoff());
    }

    public String model() {
        return model;
    }

    /** A failed attempt, and whether another one could succeed. */
    private static final class Attempt extends Exception {
        final boolean retryable;

        Attempt(String message, boolean retryable, Throwable cause) {
            super(message, cause);
            this.retryable = retryable;
        }
    }

    /** The model's answer to {@code input} as a JSON object that the server was asked to fit to {@code schema}. */
    public JsonNode structured(String instructions, String schemaName, String schema, String input) {
        String body = requestBody(instructions, schemaName, schema, input);
        Attempt last = null;
        for (int attempt = 1; attempt <= maxAttempts; attempt++) {
            try {
                return call(body);
            } catch (Attempt a) {
                last = a;
                if (!a.retryable) {
                    break;
                }
                if (attempt < maxAttempts) {
                    sleep(backoff.multipliedBy(1L << (attempt - 1)));
                }
            }
        }
        throw new StoreUnavailable("the language model at " + endpoint + " (" + last.getMessage() + ")", backoff, last);
    }

    private JsonNode call(String body) throws Attempt {
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
                .timeout(timeout)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        apiKey.ifPresent(k -> request.header("Authorization", "Bearer " + k));
        HttpResponse<String> response;
        try {
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new Attempt(e.getClass().getSimpleName() + ": " + e.getMessage(), true, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Attempt("interrupted", false, e);
        }
        int status = response.statusCode();
        if (status == 429 || status >= 500) {
            throw new Attempt("HTTP " + status, true, null);
        }
        if (status != 200) {
            throw new Attempt("HTTP " + status + ": " + abbreviated(response.body()), false, null);
        }
        try {
            JsonNode content = JSON.readTree(response.body())
                    .path("choices")
                    .path(0)
                    .path("message")
                    .path("content");
            if (!content.isTextual()) {
                throw new Attempt("the answer has no message content", true, null);
            }
            JsonNode answer = JSON.readTree(stripFence(content.asText()));
            if (answer == null || !answer.isObject()) {
                throw new Attempt("the message content is not a JSON object", true, null);
            }
            return answer;
        } catch (JsonProcessingException e) {
            throw new Attempt("malformed JSON in the answer: " + e.getOriginalMessage(), true, e);
        }
    }

    private String requestBody(String instructions, String schemaName, String schema, String input) {
        ObjectNode root = JSON.createObjectNode();
        root.put("model", model);
        root.put("temperature", 0);
        var messages = root.putArray("messages");
        messages.addObject().put("role", "system").put("content", instructions);
        messages.addObject().put("role", "user").put("content", input);
        ObjectNode format = root.putObject("response_format");
        format.put("type", "json_schema");
        ObjectNode js = format.putObject("json_schema");
        js.put("name", schemaName);
        js.put("strict", true);
        try {
            js.set("schema", JSON.readTree(schema));
            return JSON.writeValueAsString(root);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("the schema of " + schemaName + " is not JSON", e);
        }
    }

    /** Some local models wrap JSON in a Markdown code fence even when asked not to. */
    private static String stripFence(String s) {
        String t = s.strip();
        if (t.startsWith("```")) {
            t = t.replaceFirst("^```(?:json)?\\s*", "").replaceFirst("\\s*```$", "");
        }
        return t;
    }

    private static String abbreviated(String s) {
        return s.length() <= 200 ? s : s.substring(0, 200) + "…";
    }

    private static void sleep(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
