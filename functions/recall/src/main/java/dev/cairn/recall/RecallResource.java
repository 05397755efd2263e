package dev.cairn.recall;

import dev.cairn.http.RecallAnswer;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.timing.Steps;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * {@code POST /v1/teams/{team}/recall} (API.md § Recall). The class path is the team's, as its siblings' are: Quarkus REST
 * picks a root class by path before method, and a longer class path made {@code GET …/recall} a 404 instead of a 405.
 */
@Path("/v1/teams/{team}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RecallResource {

    private final RecallService recall;
    private final RequestCaller request;

    public RecallResource(RecallService recall, RequestCaller request) {
        this.recall = recall;
        this.request = request;
    }

    /** The answer, and where its time went as a {@code Server-Timing} header (embed, search, hydrate, rank). */
    @POST
    @Path("recall")
    public RestResponse<RecallAnswer> recall(Bodies.Recall body) {
        var caller = request.caller();
        Id teamId = request.team();
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"query\": \"...\"}");
        }
        RecallResult result;
        String parts;
        try (Steps steps = Steps.open()) {
            result = recall.recall(caller, teamId, body.draft());
            parts = steps.serverTiming();
        }
        // the four steps, then the parts an adapter reports of them (the embedded index splits "search")
        String timing = result.timing().serverTimingHeader();
        return RestResponse.ResponseBuilder.ok(RecallAnswer.of(result))
                .header("Server-Timing", parts.isEmpty() ? timing : timing + ", " + parts)
                .build();
    }
}
