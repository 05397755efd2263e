package dev.cairn.recall;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import java.time.Instant;
import java.util.List;

/** A memory on the wire (API.md § Memories). */
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
        String state) {

    public static MemoryView of(Memory m) {
        return new MemoryView(m.id().value(), m.team().value(), m.user() == null ? null : m.user().value(),
                m.scope().wire(), m.type().wire(), m.content(), values(m.tags()), m.importance(), m.confidence(),
                m.occurredAt(), m.createdAt(), m.lastAccessedAt(), m.accessCount(),
                m.sourceSessionId() == null ? null : m.sourceSessionId().value(), values(m.evidence()), m.version(),
                m.state().wire());
    }

    private static List<String> values(List<Id> ids) {
        return ids.stream().map(Id::value).toList();
    }
}
