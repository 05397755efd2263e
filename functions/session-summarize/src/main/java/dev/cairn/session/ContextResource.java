package dev.cairn.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.cache.ContextAssembler;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * Context assembly with its prompt-cache plan (API.md § Sessions): {@code PUT .../context/prefix} sets the system
 * prompt, tools and model; {@code GET .../context} assembles the next context, or with {@code ?turn=N} restores the
 * snapshot of turn N. Where the breakpoints go and what each block's {@code cache_control} is are shared-model's.
 */
@Path("/v1/teams/{team}/sessions/{session}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class ContextResource {

    private final ContextAssembler contexts;
    private final RequestCaller request;

    public ContextResource(ContextAssembler contexts, RequestCaller request) {
        this.contexts = contexts;
        this.request = request;
    }

    public record PrefixBody(String system, JsonNode tools, String model) {}

    public record BlockView(String kind, String text, int tokens, Map<String, String> cacheControl) {}

    public record PlanView(int breakpoints, int stablePrefixTokens, int minCacheableTokens, String ttl) {}

    /** {@code context}: what the memory was said with (a turn's reply), absent when it has none. */
    public record MemoryLine(
            String id,
            String type,
            String scope,
            String content,
            @JsonInclude(JsonInclude.Include.NON_NULL) String context) {}

    public record ContextView(
            long turn, String model, List<BlockView> blocks, PlanView promptCache, List<MemoryLine> memories) {}

    @PUT
    @Path("context/prefix")
    public Response prefix(@PathParam("session") String session, PrefixBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"system\", \"tools\", \"model\"}");
        }
        contexts.setPrefix(
                request.caller(),
                request.team(),
                Id.of("session", session),
                new ContextAssembler.PrefixDraft(body.system(), JsonParams.text(body.tools()), body.model()));
        return Response.noContent().build();
    }

    @GET
    @Path("context")
    public ContextView context(
            @PathParam("session") String session,
            @QueryParam("query") String query,
            @QueryParam("max_tokens") String maxTokens,
            @QueryParam("turn") String turn,
            @QueryParam("snapshot") String snapshot) {
        if (turn != null && (query != null || maxTokens != null || snapshot != null)) {
            // a restore replays the turn as it was assembled: a budget or a query would silently not apply
            throw new InvalidInput(
                    query != null ? "query" : maxTokens != null ? "max_tokens" : "snapshot",
                    "cannot be combined with turn: a stored turn is restored as it was assembled");
        }
        if (snapshot != null && !snapshot.equals("true") && !snapshot.equals("false")) {
            throw new InvalidInput(
                    "snapshot", "must be true or false (false: a preview that leaves the turn's snapshot)");
        }
        var caller = request.caller();
        Id teamId = request.team();
        Id sessionId = Id.of("session", session);
        ContextAssembler.Context c = turn != null
                ? contexts.restore(caller, teamId, sessionId, JsonParams.wholeNumber("turn", turn))
                : contexts.assemble(
                        caller,
                        teamId,
                        sessionId,
                        query,
                        maxTokens == null
                                ? null
                                : (int) Math.min(Integer.MAX_VALUE, JsonParams.wholeNumber("max_tokens", maxTokens)),
                        !"false".equals(snapshot));
        return new ContextView(
                c.turn(),
                c.model(),
                c.blocks().stream()
                        .map(b -> new BlockView(b.kind(), b.text(), b.tokens(), b.cacheControl()))
                        .toList(),
                new PlanView(
                        c.plan().breakpoints(),
                        c.plan().stablePrefixTokens(),
                        c.plan().minCacheableTokens(),
                        c.plan().ttl()),
                c.memories().stream().map(ContextResource::line).toList());
    }

    private static MemoryLine line(Memory m) {
        return new MemoryLine(m.id().value(), m.type().wire(), m.scope().wire(), m.content(), m.context());
    }
}
