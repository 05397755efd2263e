package dev.cairn.recall;

import dev.cairn.http.CallerPrincipal;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallService;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.SecurityContext;

/** {@code POST /v1/teams/{team}/recall} (API.md § Recall). */
@Path("/v1/teams/{team}/recall")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class RecallResource {

    private final RecallService recall;

    public RecallResource(RecallService recall) {
        this.recall = recall;
    }

    @POST
    public Bodies.RecallAnswer recall(@PathParam("team") String team, Bodies.Recall body,
                                      @Context SecurityContext sc) {
        var caller = CallerPrincipal.of(sc);
        Id teamId = Id.of("team", team);
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"query\": \"...\"}");
        }
        RecallResult result = recall.recall(caller, teamId, body.draft());
        return new Bodies.RecallAnswer(result.hits().stream().map(h -> new Bodies.RecallHit(MemoryView.of(h.memory()),
                h.score().total(), h.score().similarity(), h.score().freshness(), h.score().confidence())).toList(),
                result.model(), result.tookMs());
    }
}
