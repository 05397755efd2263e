package dev.cairn.session;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.cache.ContextAssembler;
import dev.cairn.model.cache.ToolCache;
import dev.cairn.model.cache.UsageLedger;
import dev.cairn.model.cache.UsageTotals;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
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
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Map;

/**
 * The mid-term cache routes of API.md § Sessions: the tool-result cache, context assembly with its prompt-cache plan
 * (plus {@code PUT .../context/prefix} for the system prompt and tools, and {@code ?turn=N} to restore a snapshot),
 * and the usage ledger. Thin: parsing and shaping only; the decisions are shared-model's.
 */
@Path("/v1/teams/{team}/sessions/{session}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class CacheResource {

    private final ToolCache cache;
    private final ContextAssembler contexts;
    private final UsageLedger usage;
    private final ObjectMapper json;
    private final RequestCaller request;

    public CacheResource(ToolCache cache, ContextAssembler contexts, UsageLedger usage, ObjectMapper json,
                         RequestCaller request) {
        this.request = request;
        this.cache = cache;
        this.contexts = contexts;
        this.usage = usage;
        this.json = json;
    }

    public record ValidatorBody(String kind, String value) {
    }

    public record PutBody(String tool, JsonNode params, JsonNode result, Long ttlSeconds, ValidatorBody validator) {
    }

    public record LookupBody(String tool, JsonNode params, ValidatorBody validator) {
    }

    public record Stored(String key, long bytes) {
    }

    /** {@code result} is the stored JSON value itself, not a string holding it. */
    public record LookupResult(boolean hit, JsonNode result, Long ageSeconds, String reason) {
    }

    public record Invalidated(int invalidated) {
    }

    @PUT
    @Path("tool-cache")
    public Response put(@PathParam("session") String session, PutBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"tool\", \"params\", \"result\"}");
        }
        ToolCache.Stored s = cache.put(request.caller(), request.team(), Id.of("session", session),
                new ToolCache.PutDraft(body.tool(), text(body.params()), plain(body.result()),
                        body.result() == null || body.result().isMissingNode() ? null : body.result().toString(),
                        body.ttlSeconds(), validator(body.validator())));
        return Response.status(201).entity(new Stored(s.key(), s.bytes())).build();
    }

    @POST
    @Path("tool-cache:lookup")
    public LookupResult lookup(@PathParam("session") String session,
                               LookupBody body) throws Exception {
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"tool\", \"params\"}");
        }
        ToolCache.Lookup l = cache.lookup(request.caller(), request.team(), Id.of("session", session),
                new ToolCache.LookupDraft(body.tool(), text(body.params()), validator(body.validator())));
        return new LookupResult(l.hit(), l.hit() ? json.readTree(l.result()) : null,
                l.ageSeconds(java.time.Instant.now()), l.reason());
    }

    @DELETE
    @Path("tool-cache")
    public Invalidated invalidate(@PathParam("session") String session,
                                  @QueryParam("tool_prefix") String toolPrefix) {
        return new Invalidated(cache.invalidate(request.caller(), request.team(),
                Id.of("session", session), toolPrefix));
    }

    @GET
    @Path("tool-cache/stats")
    public ToolCache.Stats stats(@PathParam("session") String session) {
        return cache.stats(request.caller(), request.team(), Id.of("session", session));
    }

    public record PrefixBody(String system, JsonNode tools, String model) {
    }

    public record BlockView(String kind, String text, int tokens, Map<String, String> cacheControl) {
    }

    public record PlanView(int breakpoints, int stablePrefixTokens, int minCacheableTokens, String ttl) {
    }

    public record MemoryLine(String id, String type, String scope, String content) {
    }

    public record ContextView(long turn, String model, List<BlockView> blocks, PlanView promptCache,
                              List<MemoryLine> memories) {
    }

    @PUT
    @Path("context/prefix")
    public Response prefix(@PathParam("session") String session, PrefixBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"system\", \"tools\", \"model\"}");
        }
        contexts.setPrefix(request.caller(), request.team(), Id.of("session", session),
                new ContextAssembler.PrefixDraft(body.system(), text(body.tools()), body.model()));
        return Response.noContent().build();
    }

    @GET
    @Path("context")
    public ContextView context(@PathParam("session") String session,
                               @QueryParam("query") String query, @QueryParam("max_tokens") String maxTokens,
                               @QueryParam("turn") String turn) {
        var caller = request.caller();
        Id teamId = request.team();
        Id sessionId = Id.of("session", session);
        ContextAssembler.Context c = turn != null
                ? contexts.restore(caller, teamId, sessionId, number("turn", turn))
                : contexts.assemble(caller, teamId, sessionId, query,
                maxTokens == null ? null : (int) Math.min(Integer.MAX_VALUE, number("max_tokens", maxTokens)));
        return new ContextView(c.turn(), c.model(), c.blocks().stream().map(b -> new BlockView(b.kind(), b.text(),
                b.tokens(), b.cacheTtl() == null ? null : b.cacheTtl().equals("1h")
                ? Map.of("type", "ephemeral", "ttl", "1h") : Map.of("type", "ephemeral"))).toList(),
                new PlanView(c.plan().breakpoints(), c.plan().stablePrefixTokens(), c.plan().minCacheableTokens(),
                        c.plan().ttl()),
                c.memories().stream().map(CacheResource::line).toList());
    }

    public record UsageBody(String model, Long inputTokens, Long outputTokens, Long cacheCreationInputTokens,
                            Long cacheReadInputTokens) {
    }

    public record UsageView(long requests, UsageTotals totals, double cacheHitRatio, UsageLedger.Cost cost,
                            Map<String, UsageTotals> byModel, List<String> unpricedModels) {
    }

    @POST
    @Path("usage")
    public Response recordUsage(@PathParam("session") String session,
                                UsageBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {model, input_tokens, output_tokens, ...}");
        }
        usage.record(request.caller(), request.team(), Id.of("session", session),
                new UsageLedger.UsageDraft(body.model(), body.inputTokens(), body.outputTokens(),
                        body.cacheCreationInputTokens(), body.cacheReadInputTokens()));
        return Response.noContent().build();
    }

    @GET
    @Path("usage")
    public UsageView usage(@PathParam("session") String session) {
        UsageLedger.Report r = usage.report(request.caller(), request.team(), Id.of("session", session));
        return new UsageView(r.requests(), r.totals(), r.cacheHitRatio(), r.cost(), r.byModel(), r.unpriced());
    }

    private static MemoryLine line(Memory m) {
        return new MemoryLine(m.id().value(), m.type().wire(), m.scope().wire(), m.content());
    }

    /** JSON as text, as the client sent it (Jackson keeps each number's value); absent → null. */
    private static String text(JsonNode node) {
        return node == null || node.isMissingNode() ? null : node.toString();
    }

    /** JSON as plain Java values (Map, List, String, Number, Boolean, null) for shared-model; absent → null. */
    private Object plain(JsonNode node) {
        return node == null || node.isMissingNode() ? null : json.convertValue(node, Object.class);
    }

    private static ToolCache.ValidatorDraft validator(ValidatorBody v) {
        return v == null ? null : new ToolCache.ValidatorDraft(v.kind(), v.value());
    }

    private static long number(String field, String raw) {
        try {
            long n = Long.parseLong(raw);
            if (n < 0) {
                throw new InvalidInput(field, "must not be negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new InvalidInput(field, "must be a whole number");
        }
    }
}
