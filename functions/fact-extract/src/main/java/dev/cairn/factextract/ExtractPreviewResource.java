package dev.cairn.factextract;

import dev.cairn.http.RequestCaller;
import dev.cairn.http.SessionEndAnswer;
import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionService;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;

/**
 * {@code GET /v1/teams/{team}/sessions/{session}/extract-preview} (API.md § Sessions): what {@code POST …/end} would
 * extract and skip now, writing nothing (no memory, and the session stays open). A GET, so retrying or prefetching
 * it is harmless; the web console shows it before the user ends a session.
 */
@Path("/v1/teams/{team}/sessions/{session}")
@Produces(MediaType.APPLICATION_JSON)
public class ExtractPreviewResource {

    private final SessionService sessions;
    private final RequestCaller request;

    public ExtractPreviewResource(SessionService sessions, RequestCaller request) {
        this.sessions = sessions;
        this.request = request;
    }

    /** A memory ending would propose to the write path; {@code redacted} when a secret was taken out of it. */
    public record ProposedView(
            String content, String type, String scope, double confidence, List<String> evidence, boolean redacted) {}

    public record PreviewView(boolean ended, List<ProposedView> wouldExtract, List<SessionEndAnswer.Skipped> skipped) {}

    @GET
    @Path("extract-preview")
    public PreviewView preview(@PathParam("session") String session) {
        SessionService.Preview p = sessions.preview(request.caller(), request.team(), Id.of("session", session));
        return new PreviewView(
                p.ended(),
                p.wouldExtract().stream()
                        .map(x -> new ProposedView(
                                x.content(),
                                x.type().wire(),
                                x.scope().wire(),
                                x.confidence(),
                                x.evidence().stream().map(Id::value).toList(),
                                x.redacted()))
                        .toList(),
                p.skipped().stream().map(SessionEndAnswer.Skipped::of).toList());
    }
}
