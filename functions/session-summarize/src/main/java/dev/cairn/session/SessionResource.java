package dev.cairn.session;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.SessionService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The session buffer routes of API.md § Sessions: create a session (its visibility), append a message, read the
 * session (ending is fact-extract's). A session belongs to the user who created it unless created as a team session.
 */
@Path("/v1/teams/{team}/sessions/{session}")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class SessionResource {

    private final SessionService sessions;
    private final RequestCaller request;

    public SessionResource(SessionService sessions, RequestCaller request) {
        this.sessions = sessions;
        this.request = request;
    }

    /** {@code occurred_at} arrives as text and is read like a memory's (an RFC 3339 string; a number is refused). */
    public record AppendBody(String role, String content, String occurredAt) {}

    /** {@code visibility}: "user" (the default: only the creator) or "team" (every member of the team). */
    public record CreateBody(String visibility) {}

    public record SessionCreated(String session, String visibility, boolean created) {}

    /** {@code remembered}: ids of memories an explicit "remember that …" created (an extension of API.md). */
    public record AppendResult(String messageId, long messageCount, long summaryVersion, List<String> remembered) {}

    @JsonInclude(JsonInclude.Include.ALWAYS)
    public record MessageView(String id, long seq, String role, String content, Instant occurredAt) {}

    public record SessionView(
            String rollingSummary,
            List<MessageView> recentMessages,
            List<String> tempFacts,
            long summaryVersion,
            long messageCount,
            boolean ended) {}

    /**
     * Creates the session before its first use: 201 when created, 200 when it already was, the same way, by the
     * caller; 409 when it exists with the other visibility.
     */
    @PUT
    public RestResponse<SessionCreated> create(@PathParam("session") String session, CreateBody body) {
        var c = sessions.access()
                .create(
                        request.caller(),
                        request.team(),
                        Id.of("session", session),
                        body == null ? null : body.visibility());
        SessionCreated view = new SessionCreated(session, c.head().owner() == null ? "team" : "user", c.created());
        return RestResponse.status(c.created() ? RestResponse.Status.CREATED : RestResponse.Status.OK, view);
    }

    @POST
    @Path("messages")
    public RestResponse<AppendResult> append(@PathParam("session") String session, AppendBody body) {
        var caller = request.caller();
        Id teamId = request.team();
        Id sessionId = Id.of("session", session);
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"role\": \"user\", \"content\": \"...\"}");
        }
        var appended = sessions.append(
                caller,
                teamId,
                sessionId,
                new SessionService.MessageDraft(body.role(), body.content(), occurredAt(body.occurredAt())));
        return RestResponse.status(
                RestResponse.Status.ACCEPTED,
                new AppendResult(
                        appended.messageId().value(),
                        appended.messageCount(),
                        appended.summaryVersion(),
                        appended.remembered().stream()
                                .map(o -> o.memory().id().value())
                                .toList()));
    }

    @GET
    public SessionView get(@PathParam("session") String session) {
        var view = sessions.get(request.caller(), request.team(), Id.of("session", session));
        return new SessionView(
                view.rollingSummary(),
                view.recentMessages().stream().map(SessionResource::view).toList(),
                view.tempFacts(),
                view.summaryVersion(),
                view.messageCount(),
                view.ended());
    }

    private static MessageView view(SessionMessage m) {
        return new MessageView(
                m.id().value(), m.seq(), m.role().name().toLowerCase(Locale.ROOT), m.content(), m.occurredAt());
    }

    private static Instant occurredAt(String raw) {
        dev.cairn.model.validation.Checks c = new dev.cairn.model.validation.Checks();
        Instant t = c.instant("occurred_at", raw);
        c.throwIfAny();
        return t;
    }
}
