package dev.cairn.teamsync;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.http.Problem;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.ConflictRecord;
import dev.cairn.model.sync.FactState;
import dev.cairn.model.sync.SyncOp;
import dev.cairn.model.sync.SyncService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/** Team sync (API.md § Team sync): deltas, the change feed, conflicts, and a rebuild of the derived state. */
@Path("/v1/teams/{team}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class SyncResource {

    private final SyncService sync;
    private final RequestCaller request;

    public SyncResource(SyncService sync, RequestCaller request) {
        this.sync = sync;
        this.request = request;
    }

    public record OpBody(
            String op,
            String factId,
            Long version,
            String content,
            String type,
            List<String> tags,
            Double confidence) {}

    public record SyncBody(
            String teamId, String clientId, Long baseVersion, String idempotencyKey, List<OpBody> delta) {}

    /**
     * {@code status}: {@code applied}, or {@code queued} when keep_both queued every op and applied nothing;
     * {@code rebased_from}: the client's base when the delta was applied on a newer head; {@code redactions}: what the
     * team's secret policy replaced, per op (a trial's client could not tell its fact was stored redacted).
     */
    public record Applied(
            String status,
            long version,
            @JsonInclude(JsonInclude.Include.NON_NULL) Long rebasedFrom,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> queued,
            @JsonInclude(JsonInclude.Include.NON_EMPTY) List<RedactedView> redactions) {}

    /** The secrets replaced in {@code delta[op].content}: offsets into the content as sent, never the secret. */
    public record RedactedView(int op, String factId, List<Problem.FindingView> findings) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record OpView(
            String op, String factId, long version, String content, String type, List<String> tags, Double confidence) {
        static OpView of(SyncOp o) {
            return new OpView(
                    o.kind().name().toLowerCase(Locale.ROOT),
                    o.factId().value(),
                    o.version(),
                    o.content(),
                    o.type() == null ? null : o.type().wire(),
                    o.tags() == null ? null : o.tags().stream().map(Id::value).toList(),
                    o.confidence());
        }
    }

    public record FactView(
            String factId,
            long version,
            boolean deleted,
            String content,
            String type,
            List<String> tags,
            double confidence,
            String memoryId) {
        static FactView of(FactState f) {
            return f == null
                    ? null
                    : new FactView(
                            f.factId().value(),
                            f.version(),
                            f.deleted(),
                            f.content(),
                            f.type().wire(),
                            f.tags().stream().map(Id::value).toList(),
                            f.confidence(),
                            f.memoryId().value());
        }
    }

    /**
     * One commit of the feed. {@code client_id} is what the sender named itself; {@code committed_by} is the user of
     * the token that sent it, which no sender chooses (a trial sent another member's id as its {@code client_id}).
     */
    public record ChangeView(
            long version, String clientId, String committedBy, Instant committedAt, List<OpView> ops) {}

    public record ChangesView(long version, List<ChangeView> changes, Long nextSince) {}

    @POST
    @Path("sync")
    public Applied sync(SyncBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {client_id, base_version, delta}");
        }
        SyncService.Applied a = sync.sync(
                request.caller(),
                request.team(),
                new SyncService.SyncDraft(
                        body.teamId(),
                        body.clientId(),
                        body.baseVersion(),
                        body.idempotencyKey(),
                        body.delta() == null
                                ? null
                                : body.delta().stream()
                                        .map(o -> o == null
                                                ? null
                                                : new SyncService.OpDraft(
                                                        o.op(),
                                                        o.factId(),
                                                        o.version(),
                                                        o.content(),
                                                        o.type(),
                                                        o.tags(),
                                                        o.confidence()))
                                        .toList()));
        return new Applied(
                a.outcome().name().toLowerCase(Locale.ROOT),
                a.version(),
                a.rebasedFrom(),
                a.queued().stream().map(Id::value).toList(),
                a.redactions().stream()
                        .map(r -> new RedactedView(r.op(), r.factId().value(), Problem.FindingView.of(r.findings())))
                        .toList());
    }

    @GET
    @Path("changes")
    public ChangesView changes(@QueryParam("since") String since, @QueryParam("limit") String limit) {
        SyncService.Changes c = sync.changes(
                request.caller(),
                request.team(),
                number("since", since),
                number("limit", limit) == null ? null : (int) Math.min(Integer.MAX_VALUE, number("limit", limit)));
        return new ChangesView(
                c.version(), c.changes().stream().map(SyncResource::change).toList(), c.nextSince());
    }

    @POST
    @Path("sync:rebuild")
    public java.util.Map<String, Object> rebuild() {
        return java.util.Map.of("facts", sync.rebuild(request.caller(), request.team()));
    }

    public record ConflictView(
            String id,
            String factId,
            long baseVersion,
            long currentVersion,
            String currentContent,
            OpView proposed,
            String clientId,
            Instant createdAt,
            String status,
            String resolution) {
        static ConflictView of(ConflictRecord c) {
            return new ConflictView(
                    c.id().value(),
                    c.factId().value(),
                    c.baseVersion(),
                    c.currentVersion(),
                    c.currentContent(),
                    OpView.of(c.proposed()),
                    c.clientId().value(),
                    c.createdAt(),
                    c.status(),
                    c.resolution());
        }
    }

    public record ConflictsView(List<ConflictView> conflicts) {}

    public record ResolveBody(String resolution, String content) {}

    @GET
    @Path("conflicts")
    public ConflictsView conflicts(@QueryParam("status") String status, @QueryParam("client_id") String clientId) {
        return new ConflictsView(sync.conflicts(request.caller(), request.team(), status, clientId).stream()
                .map(ConflictView::of)
                .toList());
    }

    @POST
    @Path("conflicts/{id}:resolve")
    public ConflictView resolve(@PathParam("id") String id, ResolveBody body) {
        if (body == null) {
            throw new InvalidInput("body", "is required: {resolution, content?}");
        }
        return ConflictView.of(sync.resolve(
                request.caller(), request.team(), Id.of("conflict", id), body.resolution(), body.content()));
    }

    private static ChangeView change(Commit c) {
        return new ChangeView(
                c.version(),
                c.clientId().value(),
                c.committer().value(),
                c.committedAt(),
                c.ops().stream().map(OpView::of).toList());
    }

    private static Long number(String field, String raw) {
        if (raw == null) {
            return null;
        }
        try {
            return Long.parseLong(raw);
        } catch (NumberFormatException e) {
            throw new InvalidInput(field, "must be a whole number");
        }
    }
}
