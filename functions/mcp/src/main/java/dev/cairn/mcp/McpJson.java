package dev.cairn.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * What a tool answers is the HTTP API's JSON (API.md: snake_case, RFC 3339 timestamps), so an agent that knows one
 * knows the other. A copy of the application's mapper: the MCP library's own must stay camelCase for the protocol.
 */
@ApplicationScoped
public class McpJson {

    private final ObjectMapper mapper;

    public McpJson(ObjectMapper base) {
        this.mapper = base.copy()
                .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
                .disable(SerializationFeature.WRITE_DATES_AS_TIMESTAMPS);
    }

    public String write(Object value) {
        try {
            return mapper.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("an MCP answer could not be written as JSON", e);
        }
    }

    /** JSON text of an argument the MCP library already parsed (an object, array or scalar); null stays null. */
    public String text(Object parsed) {
        return parsed == null ? null : write(parsed);
    }
}
