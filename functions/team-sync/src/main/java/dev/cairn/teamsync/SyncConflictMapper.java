package dev.cairn.teamsync;

import dev.cairn.http.Problem;
import dev.cairn.model.sync.SyncConflict;
import jakarta.ws.rs.core.Response;
import java.util.List;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * 409 for a sync conflict, in API.md's shape ({@code status, current_version, conflicts[{fact_id, base_version,
 * current, proposed}]}) inside a problem+json document.
 */
public class SyncConflictMapper {

    public record ConflictView(
            String factId, long baseVersion, SyncResource.FactView current, SyncResource.OpView proposed) {}

    /** The problem+json members plus API.md's; {@code status} is API.md's string, so the code goes in the header. */
    public record ConflictProblem(
            String type,
            String title,
            String detail,
            String status,
            long currentVersion,
            List<ConflictView> conflicts) {}

    @ServerExceptionMapper
    public Response conflict(SyncConflict e) {
        return Response.status(409)
                .type(Problem.MEDIA_TYPE)
                .entity(new ConflictProblem(
                        "https://cairn.dev/problems/" + e.kind(),
                        e.title(),
                        e.getMessage(),
                        "conflict",
                        e.currentVersion(),
                        e.conflicts().stream()
                                .map(c -> new ConflictView(
                                        c.proposed().factId().value(),
                                        c.baseVersion(),
                                        SyncResource.FactView.of(c.current()),
                                        SyncResource.OpView.of(c.proposed())))
                                .toList()))
                .build();
    }
}
