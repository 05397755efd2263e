package dev.cairn.factextract;

import dev.cairn.http.RequestCaller;
import dev.cairn.http.SessionEndAnswer;
import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionService;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;

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

    @POST
    @Path("end")
    public SessionEndAnswer end(@PathParam("session") String session) {
        return SessionEndAnswer.of(sessions.end(request.caller(), request.team(), Id.of("session", session)));
    }
}
