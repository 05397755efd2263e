package dev.cairn.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** The wire types of the session and tool-cache routes (API.md § Sessions). */
public final class Sessions {

    private Sessions() {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Message(String role, String content, String occurredAt) {}

    public record Accepted(String messageId, long messageCount, long summaryVersion) {}

    public record Block(String kind, String text, long tokens, String cacheControl) {}

    /** {@code GET …/context}: the blocks in prompt order; the rest of the answer stays in {@code raw}. */
    public record Context(List<Block> blocks, JsonNode promptCache, JsonNode memories) {}

    public record Ended(List<Memories.Memory> extracted, JsonNode skipped) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Validator(String kind, String value) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record ToolResult(String tool, JsonNode params, JsonNode result, Long ttlSeconds, Validator validator) {}

    public record Stored(String key, long bytes) {}

    /** {@code hit} with the result and its age, or a miss with the {@code reason} (miss, expired, stale). */
    public record Lookup(boolean hit, JsonNode result, Long ageSeconds, String reason) {}

    public record Invalidated(long invalidated) {}
}
