package dev.cairn.factextract;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cairn.http.MemoryView;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.id.Id;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionService;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
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
     * An extracted memory on the wire: the memory exactly as {@code GET …/memories/{id}} answers it ({@link
     * MemoryView}, unwrapped into this object, so one client-side model fits both), and the outcome of consolidation:
     * as the class comment lists.
     */
    public record ExtractedView(
            @JsonUnwrapped MemoryView memory,
            String consolidation,
            @JsonInclude(JsonInclude.Include.NON_NULL) String supersedes) {

        static ExtractedView of(Consolidator.Outcome o) {
            return new ExtractedView(
                    MemoryView.of(o.memory()),
                    o.action().name().toLowerCase(Locale.ROOT),
                    o.action() == Consolidator.Action.SUPERSEDED
                            ? o.previous().id().value()
                            : null);
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
