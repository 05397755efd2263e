package dev.cairn.decay;

import dev.cairn.app.Counters;
import dev.cairn.app.DecayConfig;
import dev.cairn.http.MemoryView;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.Restore;
import dev.cairn.model.id.Id;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

/**
 * The cold tier's routes: {@code POST /v1/teams/{team}/decay:run[?resume_after=id]} runs the decay job over one team
 * (what the schedule calls; it stops after {@code cairn.decay.max-run} between pages and answers where to resume),
 * and {@code POST /v1/teams/{team}/memories/{id}:restore} brings an archived memory back. Counts go to metrics
 * ({@code cairn.decay.scanned|decayed|archived|deleted}).
 */
@Path("/v1/teams/{team}")
@Produces(MediaType.APPLICATION_JSON)
public class DecayResource {

    private final DecayJob job;
    private final Restore restore;
    private final DecayConfig config;
    private final Counters metrics;
    private final RequestCaller request;

    public DecayResource(DecayJob job, Restore restore, DecayConfig config, Counters metrics, RequestCaller request) {
        this.request = request;
        this.job = job;
        this.restore = restore;
        this.config = config;
        this.metrics = metrics;
    }

    public record Run(String team, String resumeAfter, long scanned, long decayed, long archived, long deleted) {}

    @POST
    @Path("decay:run")
    public Run run(@QueryParam("resume_after") String resumeAfter) {
        Id teamId = request.team();
        request.caller().requireMember(teamId);
        Id after = resumeAfter == null ? null : Id.of("resume_after", resumeAfter);
        DecayJob.Progress p = job.run(teamId, after, config.maxRun());
        DecayMetrics.count(metrics, p.scanned(), p.decayed(), p.archived(), p.deleted());
        return new Run(
                teamId.value(),
                p.resumeAfter() == null ? null : p.resumeAfter().value(),
                p.scanned(),
                p.decayed(),
                p.archived(),
                p.deleted());
    }

    /**
     * The restored memory, in the same shape as every other answer that holds a memory ({@link MemoryView}): a new
     * user's trial found this one alone without {@code created_at}, {@code evidence} or {@code occurred_at}.
     */
    @POST
    @Path("memories/{id}:restore")
    public MemoryView restore(@PathParam("id") String id) {
        return MemoryView.of(restore.restore(request.caller(), request.team(), Id.of("memory", id)));
    }
}
