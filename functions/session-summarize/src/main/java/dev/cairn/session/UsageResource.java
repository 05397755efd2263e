package dev.cairn.session;

import dev.cairn.http.RequestCaller;
import dev.cairn.model.cache.UsageLedger;
import dev.cairn.model.cache.UsageTotals;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.validation.Checks;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** The session's usage ledger (API.md § Sessions): record a model call's token counts, report totals and cost. */
@Path("/v1/teams/{team}/sessions/{session}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class UsageResource {

    private final UsageLedger usage;
    private final RequestCaller request;

    public UsageResource(UsageLedger usage, RequestCaller request) {
        this.usage = usage;
        this.request = request;
    }

    public record UsageBody(
            String model,
            Long inputTokens,
            Long outputTokens,
            Long cacheCreationInputTokens,
            Long cacheReadInputTokens) {}

    public record UsageView(
            long requests,
            UsageTotals totals,
            double cacheHitRatio,
            UsageLedger.Cost cost,
            Map<String, UsageTotals> byModel,
            List<String> unpricedModels) {}

    @POST
    @Path("usage")
    public Response record(@PathParam("session") String session, UsageBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {model, input_tokens, output_tokens, ...}");
        }
        usage.record(
                request.caller(),
                request.team(),
                Id.of("session", session),
                new UsageLedger.UsageDraft(
                        body.model(),
                        body.inputTokens(),
                        body.outputTokens(),
                        body.cacheCreationInputTokens(),
                        body.cacheReadInputTokens()));
        return Response.noContent().build();
    }

    /** One model's usage in one bucket; {@code cost} null when the model has no configured price. */
    public record PointView(
            Instant start,
            String model,
            long requests,
            long inputTokens,
            long outputTokens,
            long cacheCreationInputTokens,
            long cacheReadInputTokens,
            UsageLedger.Cost cost) {}

    public record SeriesView(String bucket, Instant from, Instant to, List<PointView> points) {}

    /**
     * The ledger over time, per model: {@code bucket=hour|day} (default hour), optional {@code from} / {@code to}
     * (RFC 3339 UTC timestamps; from inclusive, rounded down to its bucket; to exclusive). Buckets without usage are left
     * out.
     */
    @GET
    @Path("usage/series")
    public SeriesView series(
            @PathParam("session") String session,
            @QueryParam("bucket") String bucket,
            @QueryParam("from") String from,
            @QueryParam("to") String to) {
        Checks c = new Checks();
        Instant fromAt = c.instant("from", from);
        Instant toAt = c.instant("to", to);
        c.throwIfAny();
        UsageLedger.Series s = usage.series(
                request.caller(),
                request.team(),
                Id.of("session", session),
                UsageLedger.Bucket.fromWire(bucket),
                fromAt,
                toAt);
        return new SeriesView(
                s.bucket().wire(),
                s.from(),
                s.to(),
                s.points().stream()
                        .map(p -> new PointView(
                                p.start(),
                                p.model(),
                                p.totals().requests(),
                                p.totals().inputTokens(),
                                p.totals().outputTokens(),
                                p.totals().cacheCreationInputTokens(),
                                p.totals().cacheReadInputTokens(),
                                p.cost()))
                        .toList());
    }

    @GET
    @Path("usage")
    public UsageView report(@PathParam("session") String session) {
        UsageLedger.Report r = usage.report(request.caller(), request.team(), Id.of("session", session));
        return new UsageView(r.requests(), r.totals(), r.cacheHitRatio(), r.cost(), r.byModel(), r.unpriced());
    }
}
