package dev.cairn.session;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.cache.ToolCache;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/** The session's tool-result cache (API.md § Sessions, tool-result cache): store, look up, invalidate, stats. */
@Path("/v1/teams/{team}/sessions/{session}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class ToolCacheResource {

    private final ToolCache cache;
    private final ObjectMapper json;
    private final RequestCaller request;

    public ToolCacheResource(ToolCache cache, ObjectMapper json, RequestCaller request) {
        this.cache = cache;
        this.json = json;
        this.request = request;
    }

    public record ValidatorBody(String kind, String value) {}

    public record PutBody(String tool, JsonNode params, JsonNode result, Long ttlSeconds, ValidatorBody validator) {}

    public record LookupBody(String tool, JsonNode params, ValidatorBody validator) {}

    public record Stored(String key, long bytes) {}

    /** {@code result} is the stored JSON value itself, not a string holding it. */
    public record LookupResult(boolean hit, JsonNode result, Long ageSeconds, String reason) {}

    public record Invalidated(int invalidated) {}

    @PUT
    @Path("tool-cache")
    public RestResponse<Stored> put(@PathParam("session") String session, PutBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"tool\", \"params\", \"result\"}");
        }
        ToolCache.Stored s = cache.put(
                request.caller(),
                request.team(),
                Id.of("session", session),
                new ToolCache.PutDraft(
                        body.tool(),
                        JsonParams.text(body.params()),
                        plain(body.result()),
                        body.result() == null || body.result().isMissingNode()
                                ? null
                                : body.result().toString(),
                        body.ttlSeconds(),
                        validator(body.validator())));
        return RestResponse.status(RestResponse.Status.CREATED, new Stored(s.key(), s.bytes()));
    }

    @POST
    @Path("tool-cache:lookup")
    public LookupResult lookup(@PathParam("session") String session, LookupBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"tool\", \"params\"}");
        }
        ToolCache.Lookup l = cache.lookup(
                request.caller(),
                request.team(),
                Id.of("session", session),
                new ToolCache.LookupDraft(body.tool(), JsonParams.text(body.params()), validator(body.validator())));
        return new LookupResult(l.hit(), l.hit() ? stored(l.result()) : null, l.ageSeconds(), l.reason());
    }

    @DELETE
    @Path("tool-cache")
    public Invalidated invalidate(@PathParam("session") String session, @QueryParam("tool_prefix") String toolPrefix) {
        return new Invalidated(
                cache.invalidate(request.caller(), request.team(), Id.of("session", session), toolPrefix));
    }

    @GET
    @Path("tool-cache/stats")
    public ToolCache.Stats stats(@PathParam("session") String session) {
        return cache.stats(request.caller(), request.team(), Id.of("session", session));
    }

    /** JSON as plain Java values (Map, List, String, Number, Boolean, null) for shared-model; absent → null. */
    private Object plain(JsonNode node) {
        return node == null || node.isMissingNode() ? null : json.convertValue(node, Object.class);
    }

    /**
     * A stored result as JSON. It was stored as the text of a parsed JSON value, so failing to read it back is a
     * broken store, not the client's error: it propagates as a server error.
     */
    private JsonNode stored(String result) {
        try {
            return json.readTree(result);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a tool-cache entry does not hold JSON", e);
        }
    }

    private static ToolCache.ValidatorDraft validator(ValidatorBody v) {
        return v == null ? null : new ToolCache.ValidatorDraft(v.kind(), v.value());
    }
}
