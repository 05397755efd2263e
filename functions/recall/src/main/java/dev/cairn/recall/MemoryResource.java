package dev.cairn.recall;

import dev.cairn.http.MemoryView;
import dev.cairn.http.RequestCaller;
import dev.cairn.http.Versions;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.memory.BatchOutcome;
import dev.cairn.model.memory.ListDraft;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.timing.Steps;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PATCH;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.util.ArrayList;
import java.util.List;

/** Long-term memory CRUD (API.md § Memories). Parse → caller → one use case → response. */
@Path("/v1/teams/{team}")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
public class MemoryResource {

    private final MemoryService memories;
    private final RequestCaller request;

    public MemoryResource(MemoryService memories, RequestCaller request) {
        this.memories = memories;
        this.request = request;
    }

    @POST
    @Path("memories")
    public Response create(Bodies.CreateMemory body, @Context UriInfo uri) {
        Caller caller = request.caller();
        Id teamId = request.team();
        if (body == null) {
            throw new InvalidInput("body", "is required: a JSON object with at least content");
        }
        MemoryService.Saved saved;
        String timing;
        try (Steps steps = Steps.open()) {
            saved = memories.create(caller, teamId, body.draft());
            timing = steps.serverTiming();
        }
        Memory m = saved.memory();
        return Response.created(
                        uri.getAbsolutePathBuilder().path(m.id().value()).build())
                .header(HttpHeaders.ETAG, Versions.etag(m.version()))
                // where the write's time went: check (validation, secret gate), store, embed, index
                .header("Server-Timing", timing)
                .entity(MemoryView.of(m, saved.redactions(), saved.contextRedactions()))
                .build();
    }

    @POST
    @Path("memories:batch")
    public Bodies.BatchResult batch(Bodies.Batch body) {
        Caller caller = request.caller();
        Id teamId = request.team();
        if (body == null) {
            throw new InvalidInput("body", "is required: {\"memories\": [...]}");
        }
        List<dev.cairn.model.memory.MemoryDraft> drafts = body.memories() == null
                ? null
                : body.memories().stream()
                        .map(c -> c == null || c.refused() != null ? null : c.draft())
                        .toList();
        List<BatchOutcome> outcomes = memories.createBatch(caller, teamId, drafts);
        List<Bodies.BatchItem> items = new ArrayList<>(outcomes.size());
        for (BatchOutcome o : outcomes) {
            Bodies.CreateMemory sent = body.memories().get(o.index());
            if (sent != null && sent.refused() != null) {
                // the domain saw no draft here; the answer says why binding refused the item
                items.add(new Bodies.BatchItem(o.index(), "rejected", null, sent.refused()));
                continue;
            }
            items.add(
                    o.ok()
                            ? new Bodies.BatchItem(
                                    o.index(),
                                    "created",
                                    MemoryView.of(o.memory(), o.redactions(), o.contextRedactions()),
                                    null)
                            : new Bodies.BatchItem(o.index(), "rejected", null, ProblemViews.of(o.error())));
        }
        return new Bodies.BatchResult(items);
    }

    @GET
    @Path("memories/{id}")
    public Response get(@PathParam("id") String id) {
        Memory m = memories.get(request.caller(), request.team(), Id.of("id", id));
        return Response.ok(MemoryView.of(m))
                .header(HttpHeaders.ETAG, Versions.etag(m.version()))
                .build();
    }

    @PATCH
    @Path("memories/{id}")
    public Response patch(@PathParam("id") String id, @HeaderParam("If-Match") String ifMatch, Bodies.Patch body) {
        Caller caller = request.caller();
        Id teamId = request.team();
        Id memoryId = Id.of("id", id);
        if (body == null) {
            throw new InvalidInput("body", "is required: a JSON object with the fields to change");
        }
        MemoryService.Saved saved =
                memories.patch(caller, teamId, memoryId, Versions.requireIfMatch(ifMatch), body.draft());
        Memory m = saved.memory();
        return Response.ok(MemoryView.of(m, saved.redactions()))
                .header(HttpHeaders.ETAG, Versions.etag(m.version()))
                .build();
    }

    @DELETE
    @Path("memories/{id}")
    public Response delete(@PathParam("id") String id, @HeaderParam("If-Match") String ifMatch) {
        memories.delete(request.caller(), request.team(), Id.of("id", id), Versions.optionalIfMatch(ifMatch));
        return Response.noContent().build();
    }

    @GET
    @Path("memories")
    public Bodies.MemoryPage list(
            @QueryParam("scope") String scope,
            @QueryParam("type") String type,
            @QueryParam("tag") String tag,
            @QueryParam("order") String order,
            @QueryParam("limit") String limit,
            @QueryParam("cursor") String cursor) {
        Caller caller = request.caller();
        ListDraft draft = new ListDraft(scope, type, tag, order, QueryParams.integer("limit", limit), cursor);
        MemoryService.Listing page = memories.list(caller, request.team(), draft);
        return new Bodies.MemoryPage(
                page.memories().stream().map(MemoryView::of).toList(), page.nextCursor());
    }
}
