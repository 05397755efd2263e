package dev.cairn.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.secret.Finding;
import java.time.Instant;
import java.util.List;

/**
 * A memory on the wire (API.md § Memories), plus {@code superseded_by} and {@code valid_to} (null while current). One
 * copy for every front door (the REST resources and the MCP tools), so both show a memory alike.
 */
public record MemoryView(
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
        String supersededBy,
        Instant validTo,
        @JsonInclude(JsonInclude.Include.NON_NULL) String context,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Problem.FindingView> redactions,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Problem.FindingView> contextRedactions) {

    public static MemoryView of(Memory m) {
        return of(m, List.of());
    }

    /** With {@code redactions}: what the secret policy replaced in the submitted content (offsets into it). */
    public static MemoryView of(Memory m, List<Finding> redactions) {
        return of(m, redactions, List.of());
    }

    /**
     * With what the secret policy replaced in the submitted content and in the submitted context (offsets into
     * each). {@code context} is left out of the answer when the memory has none, so answers about memories written
     * without one are as before.
     */
    public static MemoryView of(Memory m, List<Finding> redactions, List<Finding> contextRedactions) {
        return new MemoryView(
                m.id().value(),
                m.team().value(),
                m.user() == null ? null : m.user().value(),
                m.scope().wire(),
                m.type().wire(),
                m.content(),
                values(m.tags()),
                m.importance(),
                m.confidence(),
                m.occurredAt(),
                m.createdAt(),
                m.lastAccessedAt(),
                m.accessCount(),
                m.sourceSessionId() == null ? null : m.sourceSessionId().value(),
                values(m.evidence()),
                m.version(),
                m.state().wire(),
                m.supersededBy() == null ? null : m.supersededBy().value(),
                m.validTo(),
                m.context(),
                Problem.FindingView.of(redactions),
                Problem.FindingView.of(contextRedactions));
    }

    private static List<String> values(List<Id> ids) {
        return ids.stream().map(Id::value).toList();
    }
}
