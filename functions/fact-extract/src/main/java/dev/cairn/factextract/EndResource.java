package dev.cairn.factextract;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionService;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * {@code POST /v1/teams/{team}/sessions/{session}/end} (API.md § Sessions): the extraction pipeline's trigger. Each
 * extracted memory also says what consolidation did with it ({@code consolidation}: created, reinforced,
 * superseded — it replaced {@code supersedes} — or outdated — an older statement stored as history).
 */
@Path("/v1/teams/{team}/sessions/{session}")
@Produces(MediaType.APPLICATION_JSON)
public class EndResource {

    private final SessionService sessions;
    private final RequestCaller request;

    public EndResource(SessionService sessions, RequestCaller request) {
        this.sessions = sessions;
        this.request = request;
    }

    /**
     * An extracted memory on the wire: every field of API.md § Memories that {@code GET …/memories/{id}} answers (a new
     * user's trial found tags, importance and created_at missing here, so one client-side model did not fit both), and
     * the outcome of consolidation.
     */
    public record ExtractedView(
            String id,
            String team,
            String user,
            String scope,
            String type,
            String content,
            List<String> tags,
            double importance,
            double confidence,
            Instant occurredAt,
            Instant createdAt,
            Instant lastAccessedAt,
            long accessCount,
            String sourceSessionId,
            List<String> evidence,
            long version,
            String state,
            Instant validTo,
            String consolidation,
            @JsonInclude(JsonInclude.Include.NON_NULL) String supersedes,
            @JsonInclude(JsonInclude.Include.NON_NULL) String supersededBy) {

        static ExtractedView of(Consolidator.Outcome o) {
            Memory m = o.memory();
            return new ExtractedView(
                    m.id().value(),
                    m.team().value(),
                    m.user() == null ? null : m.user().value(),
                    m.scope().wire(),
                    m.type().wire(),
                    m.content(),
                    m.tags().stream().map(Id::value).toList(),
                    m.importance(),
                    m.confidence(),
                    m.occurredAt(),
                    m.createdAt(),
                    m.lastAccessedAt(),
                    m.accessCount(),
                    m.sourceSessionId() == null ? null : m.sourceSessionId().value(),
                    m.evidence().stream().map(Id::value).toList(),
                    m.version(),
                    m.state().wire(),
                    m.validTo(),
                    o.action().name().toLowerCase(Locale.ROOT),
                    o.action() == Consolidator.Action.SUPERSEDED
                            ? o.previous().id().value()
                            : null,
                    m.supersededBy() == null ? null : m.supersededBy().value());
        }
    }

    /** A statement left out: its text (a secret redacted), why, and the extractor's score where it has one. */
    public record SkippedView(
            String text,
            String reason,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double score) {

        static SkippedView of(FactExtractor.Skipped s) {
            return new SkippedView(s.text(), s.reason(), s.score());
        }
    }

    public record EndResult(List<ExtractedView> extracted, List<SkippedView> skipped) {}

    @POST
    @Path("end")
    public EndResult end(@PathParam("session") String session) {
        var ended = sessions.end(request.caller(), request.team(), Id.of("session", session));
        return new EndResult(
                ended.extracted().stream().map(ExtractedView::of).toList(),
                ended.skipped().stream().map(SkippedView::of).toList());
    }
}
