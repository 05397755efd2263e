package dev.cairn.model.testkit;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Test-data builder for {@link Memory}: a test names only the fields its behaviour depends on, the rest keep
 * defaults that satisfy every invariant (an active, current team fact of team {@code acme}, version 1, never read).
 */
public final class Memories {

    /** When default memories were created: a fixed instant, so equal builders build equal memories. */
    public static final Instant CREATED = Instant.parse("2026-11-01T00:00:00Z");

    private Id id = new Id("m1");
    private Id team = new Id("acme");
    private Id user;
    private Scope scope = Scope.TEAM;
    private MemoryType type = MemoryType.FACT;
    private String content = "The staging database is PostgreSQL 16";
    private List<Id> tags = List.of();
    private double importance = 0.5;
    private double confidence = 1.0;
    private Instant occurredAt;
    private Instant createdAt = CREATED;
    private Instant lastAccessedAt;
    private long accessCount;
    private Id sourceSession;
    private List<Id> evidence = List.of();
    private long version = 1;
    private MemoryState state = MemoryState.ACTIVE;
    private Id supersededBy;
    private Instant validTo;
    private String context;

    private Memories() {}

    public static Memories memory() {
        return new Memories();
    }

    /** Starts from every field of {@code m}, to change a few. */
    public static Memories from(Memory m) {
        Memories b = new Memories();
        b.id = m.id();
        b.team = m.team();
        b.user = m.user();
        b.scope = m.scope();
        b.type = m.type();
        b.content = m.content();
        b.tags = m.tags();
        b.importance = m.importance();
        b.confidence = m.confidence();
        b.occurredAt = m.occurredAt();
        b.createdAt = m.createdAt();
        b.lastAccessedAt = m.lastAccessedAt();
        b.accessCount = m.accessCount();
        b.sourceSession = m.sourceSessionId();
        b.evidence = m.evidence();
        b.version = m.version();
        b.state = m.state();
        b.supersededBy = m.supersededBy();
        b.validTo = m.validTo();
        b.context = m.context();
        return b;
    }

    public Memories id(String value) {
        return id(new Id(value));
    }

    public Memories id(Id value) {
        this.id = value;
        return this;
    }

    public Memories team(String value) {
        return team(new Id(value));
    }

    public Memories team(Id value) {
        this.team = value;
        return this;
    }

    /** A user-scope memory of {@code owner}; null makes it a team memory (the two go together). */
    public Memories user(String owner) {
        this.user = owner == null ? null : new Id(owner);
        this.scope = owner == null ? Scope.TEAM : Scope.USER;
        return this;
    }

    public Memories type(MemoryType value) {
        this.type = value;
        return this;
    }

    public Memories content(String value) {
        this.content = value;
        return this;
    }

    public Memories tags(String... values) {
        this.tags = ids(values);
        return this;
    }

    public Memories importance(double value) {
        this.importance = value;
        return this;
    }

    public Memories confidence(double value) {
        this.confidence = value;
        return this;
    }

    public Memories occurredAt(Instant value) {
        this.occurredAt = value;
        return this;
    }

    public Memories createdAt(Instant value) {
        this.createdAt = value;
        return this;
    }

    /** {@code count} reads, the last at {@code last} (null when {@code count} is 0). */
    public Memories accessed(long count, Instant last) {
        this.accessCount = count;
        this.lastAccessedAt = last;
        return this;
    }

    public Memories sourceSession(String value) {
        this.sourceSession = value == null ? null : new Id(value);
        return this;
    }

    public Memories evidence(String... values) {
        this.evidence = ids(values);
        return this;
    }

    public Memories version(long value) {
        this.version = value;
        return this;
    }

    public Memories state(MemoryState value) {
        this.state = value;
        return this;
    }

    public Memories context(String value) {
        this.context = value;
        return this;
    }

    public Memories supersededBy(Id winner, Instant from) {
        this.supersededBy = winner;
        this.validTo = from;
        return this;
    }

    public Memory build() {
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
                sourceSession,
                evidence,
                version,
                state,
                supersededBy,
                validTo,
                context);
    }

    private static List<Id> ids(String... values) {
        return Arrays.stream(values).map(Id::new).toList();
    }
}
