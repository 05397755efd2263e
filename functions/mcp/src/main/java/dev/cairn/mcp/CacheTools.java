package dev.cairn.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.model.cache.ToolCache;
import dev.cairn.model.error.FieldError;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkiverse.mcp.server.Tool;
import io.quarkiverse.mcp.server.ToolArg;
import io.quarkiverse.mcp.server.ToolGuardrails;
import java.util.Map;

/** The session's tool-result cache as MCP tools (API.md § Sessions, tool-result cache). */
@ToolErrors
public class CacheTools {

    private final ToolCache cache;
    private final McpCallers callers;
    private final McpJson json;
    private final ObjectMapper reader;

    public CacheTools(ToolCache cache, McpCallers callers, McpJson json, ObjectMapper reader) {
        this.cache = cache;
        this.callers = callers;
        this.json = json;
        this.reader = reader;
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "tool_cache_lookup",
            description = "Before running an expensive, repeatable tool call (reading a file, a search, an API "
                    + "query), ask whether this session already has its result. Parameters match whatever their "
                    + "key order or number spelling. Answers hit with the result and its age, or the reason for a "
                    + "miss (miss, expired, stale).")
    public String lookup(
            @ToolArg(description = SESSION_ARG) String session,
            @ToolArg(description = "The tool's name, e.g. read_file") String tool,
            @ToolArg(description = "The call's parameters (a JSON object)") Map<String, Object> params,
            @ToolArg(description = "mtime, etag or hash: a validator the result is still good for", required = false)
                    String validator_kind,
            @ToolArg(description = "The validator's current value (e.g. the file's mtime)", required = false)
                    String validator_value,
            @ToolArg(description = MemoryTools.TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        ToolCache.Lookup l = asArguments(() -> cache.lookup(
                caller,
                McpCallers.team(caller, team),
                Id.of("session", session),
                new ToolCache.LookupDraft(tool, json.text(params), validator(validator_kind, validator_value))));
        return json.write(
                new Views.CacheLookup(l.hit(), l.hit() ? stored(l.result()) : null, l.ageSeconds(), l.reason()));
    }

    @ToolGuardrails(input = DeclaredArgumentsOnly.class)
    @Tool(
            name = "tool_cache_store",
            description = "Keep a tool call's result for this session, so a later tool_cache_lookup with the same "
                    + "tool and parameters can reuse it. Results holding secrets are refused.")
    public String store(
            @ToolArg(description = SESSION_ARG) String session,
            @ToolArg(description = "The tool's name") String tool,
            @ToolArg(description = "The call's parameters (a JSON object)") Map<String, Object> params,
            @ToolArg(description = "The result to keep, as a JSON object (wrap plain text: {\"text\": \"...\"})")
                    Object result,
            @ToolArg(description = "Seconds it stays valid", required = false) Long ttl_seconds,
            @ToolArg(description = "mtime, etag or hash", required = false) String validator_kind,
            @ToolArg(description = "The validator's value when the result was made", required = false)
                    String validator_value,
            @ToolArg(description = MemoryTools.TEAM, required = false) String team,
            McpConnection connection) {
        Caller caller = callers.caller(connection);
        ToolCache.Stored s = asArguments(() -> cache.put(
                caller,
                McpCallers.team(caller, team),
                Id.of("session", session),
                new ToolCache.PutDraft(
                        tool,
                        json.text(params),
                        result,
                        json.text(result),
                        ttl_seconds,
                        validator(validator_kind, validator_value))));
        return json.write(new Views.Stored(s.key(), s.bytes()));
    }

    static final String SESSION_ARG = "Session id of this conversation";

    /**
     * The use case names the validator's fields as the HTTP body nests them ({@code validator.kind}); here they are the
     * flat arguments {@code validator_kind} and {@code validator_value}, so a refusal names what the agent sent.
     */
    private static <T> T asArguments(java.util.function.Supplier<T> call) {
        try {
            return call.get();
        } catch (InvalidInput e) {
            if (e.getClass() != InvalidInput.class
                    || e.errors().stream().noneMatch(f -> f.field().startsWith("validator."))) {
                throw e; // an id's own refusal (invalid-id) and every other field stay as they are
            }
            throw new InvalidInput(e.errors().stream()
                    .map(f -> new FieldError(f.field().replace("validator.", "validator_"), f.message()))
                    .toList());
        }
    }

    private static ToolCache.ValidatorDraft validator(String kind, String value) {
        return kind == null && value == null ? null : new ToolCache.ValidatorDraft(kind, value);
    }

    /** A stored result was the text of a parsed JSON value: failing to read it back is a broken store. */
    private Object stored(String result) {
        try {
            return reader.readValue(result, Object.class);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool-cache entry does not hold JSON", e);
        }
    }
}
