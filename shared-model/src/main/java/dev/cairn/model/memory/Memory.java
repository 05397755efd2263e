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
 *
 * <p>A memory a newer one contradicted is kept, marked with {@code supersededBy} (the winner's id) and {@code validTo}
 * (when the winner became true): recall leaves it out unless asked {@code as_of} a time inside its validity.
 *
 * <p>{@code context} (optional) is text the memory is found by but that is not the memory: for a conversation turn,
 * the reply to it, since questions are often answered there. It feeds the lexical side of recall only (the
 * embedding stays the content's, so the similarity still says how close the memory itself is) and is kept, redacted
 * and deleted with the memory.
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
        MemoryState state,
        Id supersededBy,
        Instant validTo,
        String context) {

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
        if ((supersededBy == null) != (validTo == null)) {
            throw new IllegalArgumentException("supersededBy and validTo go together");
        }
        if (context != null && context.isEmpty()) {
            context = null; // no context and an empty one index alike; one spelling keeps stores and equality simple
        }
    }

    /** A memory nothing has superseded (yet). */
    public Memory(
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
        this(
                id,
                team,
                user,
                scope,
                type,
                content,
                tags,
                importance,
                confidence,
                occurredAt,
                createdAt,
                lastAccessedAt,
                accessCount,
                sourceSessionId,
                evidence,
                version,
                state,
                null,
                null,
                null);
    }

    /** Whether no newer memory has superseded this one. */
    public boolean isCurrent() {
        return supersededBy == null;
    }

    /** Whether this memory held at {@code t}: it had happened (or been stored) by then and was not yet superseded. */
    public boolean validAt(Instant t) {
        return !effectiveTime().isAfter(t) && (validTo == null || validTo.isAfter(t));
    }

    /** The next version, marked as superseded by {@code winner} from {@code at} on. */
    public Memory supersededBy(Id winner, Instant at) {
        return new Memory(
                id,
                team,
                user,
                scope,
                type,
                content,
                tags,
                importance,
                confidence,
                occurredAt,
                createdAt,
                lastAccessedAt,
                accessCount,
                sourceSessionId,
                evidence,
                version + 1,
                state,
                winner,
                at,
                context);
    }

    /**
     * The next version after the same fact was stated again: confidence combined as independent evidence
     * ({@code 1 − (1−a)(1−b)}, capped at 0.99 so repetition alone never makes a fact certain; never lowered),
     * the new evidence added, and freshness moved to {@code restatedAt} when given.
     */
    public Memory reinforcedBy(double otherConfidence, List<Id> moreEvidence, int maxEvidence, Instant restatedAt) {
        double combined = Math.max(confidence, Math.min(0.99, 1 - (1 - confidence) * (1 - otherConfidence)));
        java.util.LinkedHashSet<Id> ev = new java.util.LinkedHashSet<>(evidence);
        for (Id e : moreEvidence) {
            if (ev.size() >= maxEvidence) {
                break;
            }
            ev.add(e);
        }
        return new Memory(
                id,
                team,
                user,
                scope,
                type,
                content,
                tags,
                importance,
                combined,
                restatedAt != null ? restatedAt : occurredAt,
                createdAt,
                lastAccessedAt,
                accessCount,
                sourceSessionId,
                List.copyOf(ev),
                version + 1,
                state,
                supersededBy,
                validTo,
                context);
    }

    /**
     * The stub this memory leaves in the hot store when it is archived (its full copy goes to the cold tier): state
     * archived, content and context emptied, one version on. Out of the index and of recall until restored.
     */
    public Memory archivedStub() {
        return new Memory(
                id,
                team,
                user,
                scope,
                type,
                "",
                tags,
                importance,
                confidence,
                occurredAt,
                createdAt,
                lastAccessedAt,
                accessCount,
                sourceSessionId,
                evidence,
                version + 1,
                MemoryState.ARCHIVED,
                supersededBy,
                validTo,
                null);
    }

    /**
     * The same memory (same version) after one more use at {@code at}: what {@link
     * dev.cairn.model.port.MemoryStore#recordAccess} stores — the count one higher, the last access the later of the
     * two — so a use case that recorded an access can return the memory as it now is.
     */
    public Memory accessedAt(Instant at) {
        Instant last = lastAccessedAt == null || at.isAfter(lastAccessedAt) ? at : lastAccessedAt;
        return new Memory(
                id,
                team,
                user,
                scope,
                type,
                content,
                tags,
                importance,
                confidence,
                occurredAt,
                createdAt,
                last,
                accessCount + 1,
                sourceSessionId,
                evidence,
                version,
                state,
                supersededBy,
                validTo,
                context);
    }

    /** When the remembered thing happened; falls back to when it was stored. Freshness is measured from here. */
    public Instant effectiveTime() {
        return occurredAt != null ? occurredAt : createdAt;
    }

    /** Whether {@code viewer} may see this memory: team memories to every member, user memories to their owner. */
    public boolean visibleTo(Id viewer) {
        return scope == Scope.TEAM || user.equals(viewer);
    }

    /** What the lexical side of recall indexes: the content, and the context after it when there is one. */
    public String lexicalText() {
        return context == null ? content : content + "\n" + context;
    }

    /** The same memory (same version) with another context: redaction on write and on read. */
    public Memory withContext(String newContext) {
        return Objects.equals(newContext, context)
                ? this
                : new Memory(
                        id,
                        team,
                        user,
                        scope,
                        type,
                        content,
                        tags,
                        importance,
                        confidence,
                        occurredAt,
                        createdAt,
                        lastAccessedAt,
                        accessCount,
                        sourceSessionId,
                        evidence,
                        version,
                        state,
                        supersededBy,
                        validTo,
                        newContext);
    }

    /** The same memory (same version) with other content: redaction on write and on read. */
    public Memory withContent(String newContent) {
        return newContent.equals(content)
                ? this
                : new Memory(
                        id,
                        team,
                        user,
                        scope,
                        type,
                        newContent,
                        tags,
                        importance,
                        confidence,
                        occurredAt,
                        createdAt,
                        lastAccessedAt,
                        accessCount,
                        sourceSessionId,
                        evidence,
                        version,
                        state,
                        supersededBy,
                        validTo,
                        context);
    }

    public Memory withChanges(MemoryPatch patch) {
        return new Memory(
                id,
                team,
                user,
                scope,
                patch.type() != null ? patch.type() : type,
                patch.content() != null ? patch.content() : content,
                patch.tags() != null ? patch.tags() : tags,
                patch.importance() != null ? patch.importance() : importance,
                patch.confidence() != null ? patch.confidence() : confidence,
                patch.occurredAt() != null ? patch.occurredAt() : occurredAt,
                createdAt,
                lastAccessedAt,
                accessCount,
                sourceSessionId,
                patch.evidence() != null ? patch.evidence() : evidence,
                version + 1,
                patch.state() != null ? patch.state() : state,
                supersededBy,
                validTo,
                context);
    }
}
