package dev.cairn.model.memory;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A long-term memory as stored in the record store (the source of truth).
 *
 * <p>Invariants: {@code user} is set exactly when {@code scope} is {@link Scope#USER}; {@code version} starts at 1
 * and grows by one with every content change (access statistics do not change it, so an agent's reads never break
 * another agent's {@code If-Match}).
 */
public record Memory(
        Id id,
        Id team,
        Id user,
        Scope scope,
        MemoryType type,
        String content,
        List<Id> tags,
        double importance,
        double confidence,
        Instant occurredAt,
        Instant createdAt,
        Instant lastAccessedAt,
        long accessCount,
        Id sourceSessionId,
        List<Id> evidence,
        long version,
        MemoryState state) {

    public Memory {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(scope, "scope");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(content, "content");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(state, "state");
        if ((scope == Scope.USER) != (user != null)) {
            throw new IllegalArgumentException("user must be set exactly for user-scope memories");
        }
        tags = List.copyOf(tags);
        evidence = List.copyOf(evidence);
    }

    /** When the remembered thing happened; falls back to when it was stored. Freshness is measured from here. */
    public Instant effectiveTime() {
        return occurredAt != null ? occurredAt : createdAt;
    }

    /** Whether {@code viewer} may see this memory: team memories to every member, user memories to their owner. */
    public boolean visibleTo(Id viewer) {
        return scope == Scope.TEAM || user.equals(viewer);
    }

    /** The same memory (same version) with other content: redaction on write and on read. */
    public Memory withContent(String newContent) {
        return newContent.equals(content) ? this : new Memory(id, team, user, scope, type, newContent, tags,
                importance, confidence, occurredAt, createdAt, lastAccessedAt, accessCount, sourceSessionId, evidence,
                version, state);
    }

    public Memory withChanges(MemoryPatch patch) {
        return new Memory(id, team, user, scope,
                patch.type() != null ? patch.type() : type,
                patch.content() != null ? patch.content() : content,
                patch.tags() != null ? patch.tags() : tags,
                patch.importance() != null ? patch.importance() : importance,
                patch.confidence() != null ? patch.confidence() : confidence,
                patch.occurredAt() != null ? patch.occurredAt() : occurredAt,
                createdAt, lastAccessedAt, accessCount, sourceSessionId,
                patch.evidence() != null ? patch.evidence() : evidence,
                version + 1,
                patch.state() != null ? patch.state() : state);
    }

}
