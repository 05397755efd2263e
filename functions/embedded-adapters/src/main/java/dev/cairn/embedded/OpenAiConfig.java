package dev.cairn.embedded;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;
import java.util.Optional;

/**
 * An OpenAI-compatible chat-completions endpoint ({@code cairn.openai.*}), used when {@code cairn.backend.extractor}
 * or {@code cairn.backend.summarizer} is {@code openai}: Ollama ({@code http://localhost:11434/v1}), a llama.cpp
 * server, vLLM, LM Studio, or OpenAI itself.
 */
@ConfigMapping(prefix = "cairn.openai")
public interface OpenAiConfig {

    /** The API's base URL, up to and including {@code /v1}; {@code /chat/completions} is appended. */
    @WithName("base-url")
    @WithDefault("http://localhost:11434/v1")
    String baseUrl();

    @WithDefault("llama3.1")
    String model();

    /** Sent as a bearer token when set; local servers usually need none. */
    @WithName("api-key")
    Optional<String> apiKey();

    /** How long one request may take, connection included. */
    @WithDefault("60s")
    Duration timeout();

    /** Attempts per call (the first included); a timeout, a 429, a 5xx or an unreadable answer is retried. */
    @WithName("max-attempts")
    @WithDefault("3")
    int maxAttempts();

    /** The wait before the second attempt; it doubles for each further one. */
    @WithDefault("500ms")
    Duration backoff();
}
