package dev.cairn.model.memory;

import com.github.f4b6a3.ulid.UlidCreator;
import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretRejected;
import dev.cairn.model.sync.SyncedFactMemory;
import dev.cairn.model.sync.SyncedFacts;
import dev.cairn.model.timing.Steps;
import dev.cairn.model.validation.Checks;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The long-term memory use cases: create (one or a batch), get, patch, delete, list.
 *
 * <p>Every call first checks the caller's membership of the team; user-scope memories of other users are reported as
 * not found (their existence is not disclosed). All input is validated before anything is written.
 */
public final class MemoryService {

    private static final System.Logger LOG = System.getLogger(MemoryService.class.getName());

    private final MemoryStore store;
    private final Indexer indexer;
    private final Clock clock;
    private final MemoryLimits limits;
    private final DeleteCascade cascade;
    private final SecretGate secrets;

    public MemoryService(MemoryStore store, Indexer indexer, Clock clock, MemoryLimits limits, SecretGate secrets) {
        this(store, indexer, clock, limits, secrets, DeleteCascade.NONE);
    }

    /** With {@code cascade}: what else drops a deleted memory's text (context snapshots). */
    public MemoryService(
            MemoryStore store,
            Indexer indexer,
            Clock clock,
            MemoryLimits limits,
            SecretGate secrets,
            DeleteCascade cascade) {
        this.secrets = secrets;
        this.store = store;
        this.indexer = indexer;
        this.clock = clock;
        this.limits = limits;
        this.cascade = cascade;
    }

    public MemoryLimits limits() {
        return limits;
    }

    /**
     * A stored memory and what the secret policy redacted from it (empty when nothing was): from its content, and
     * from its context (offsets into each).
     */
    public record Saved(Memory memory, List<Finding> redactions, List<Finding> contextRedactions) {

        public Saved(Memory memory, List<Finding> redactions) {
            this(memory, redactions, List.of());
        }
    }

    public Saved create(Caller caller, Id team, MemoryDraft draft) {
        long t0 = System.nanoTime();
        Saved prepared = prepare(caller, team, draft);
        Steps.add("check", System.nanoTime() - t0);
        return insert(prepared);
    }

    /**
     * The checks of a create without the write: membership, validation, the secret gate, the model check. The result
     * is the memory as it would be stored (a new id, version 1) for a caller that decides what to write, such as
     * consolidation.
     */
    public Saved prepare(Caller caller, Id team, MemoryDraft draft) {
        caller.requireMember(team);
        NewMemory valid = draft.validate(limits);
        inBounds("occurred_at", valid.occurredAt());
        SecretGate.Screened screened = screenContent(team, "content", valid.content());
        SecretGate.Screened context = screenContext(team, "context", valid.context());
        indexer.requireCompatibleModel();
        Memory memory =
                build(caller, team, valid, now()).withContent(screened.text()).withContext(context.text());
        return new Saved(memory, screened.redactions(), context.redactions());
    }

    /** Writes a prepared new memory ({@code attribute_not_exists}) and indexes it. */
    public Saved insert(Saved prepared) {
        return insert(prepared, null);
    }

    /** As {@link #insert(Saved)} when the caller already embedded the content (null: the indexer embeds it). */
    public Saved insert(Saved prepared, float[] documentVector) {
        long t0 = System.nanoTime();
        store.insertAll(List.of(prepared.memory()));
        Steps.add("store", System.nanoTime() - t0);
        try {
            if (documentVector == null) {
                indexer.index(List.of(prepared.memory()));
            } else {
                indexer.index(prepared.memory(), documentVector);
            }
        } catch (RuntimeException e) {
            LOG.log(
                    Level.WARNING,
                    "indexing deferred for memory " + prepared.memory().id() + ": " + e);
        }
        return prepared;
    }

    /**
     * Writes the next version of a stored memory (conditional on the version before it) and indexes it; a
     * {@link VersionConflict} means another writer changed it first and nothing was written.
     */
    public void replace(Memory next) {
        store.replace(next);
        indexQuietly(List.of(next));
    }

    /** Validates each item on its own: a bad item is reported in its slot and does not fail the others. */
    public List<BatchOutcome> createBatch(Caller caller, Id team, List<MemoryDraft> drafts) {
        caller.requireMember(team);
        if (drafts == null) {
            throw new InvalidInput("memories", "is required");
        }
        if (drafts.isEmpty()) {
            throw new InvalidInput("memories", "must hold at least one memory");
        }
        if (drafts.size() > limits.maxBatch()) {
            throw new InvalidInput("memories", "has " + drafts.size() + " items; the most is " + limits.maxBatch());
        }
        indexer.requireCompatibleModel();
        Instant now = now();
        List<BatchOutcome> outcomes = new ArrayList<>(drafts.size());
        List<Memory> accepted = new ArrayList<>();
        for (int i = 0; i < drafts.size(); i++) {
            MemoryDraft d = drafts.get(i);
            try {
                if (d == null) {
                    throw new InvalidInput("memories[" + i + "]", "must be an object");
                }
                NewMemory valid;
                try {
                    valid = d.validate(limits);
                } catch (InvalidInput e) {
                    throw e.under("memories[" + i + "]");
                }
                inBounds("memories[" + i + "].occurred_at", valid.occurredAt());
                SecretGate.Screened screened = screenContent(team, "memories[" + i + "].content", valid.content());
                SecretGate.Screened context = screenContext(team, "memories[" + i + "].context", valid.context());
                Memory m = build(caller, team, valid, now)
                        .withContent(screened.text())
                        .withContext(context.text());
                accepted.add(m);
                outcomes.add(new BatchOutcome(i, m, screened.redactions(), context.redactions(), null));
            } catch (CairnException e) {
                outcomes.add(new BatchOutcome(i, null, List.of(), e));
            }
        }
        // each item is its own write: one the store did not take is reported in its slot, the others stand
        Map<Id, CairnException> failed = accepted.isEmpty() ? Map.of() : store.insertEach(accepted);
        List<Memory> written = new ArrayList<>(accepted.size());
        for (int i = 0; i < outcomes.size(); i++) {
            BatchOutcome o = outcomes.get(i);
            if (o.ok() && failed.containsKey(o.memory().id())) {
                outcomes.set(
                        i,
                        new BatchOutcome(
                                o.index(),
                                null,
                                List.of(),
                                failed.get(o.memory().id())));
            } else if (o.ok()) {
                written.add(o.memory());
            }
        }
        indexQuietly(written);
        return outcomes;
    }

    /**
     * The content through the secret gate; under the redact policy a content that would be nothing but redaction
     * markers is refused instead: it holds nothing to remember, and stored it would still come back from recall (a
     * new user's trial found a lone private key recalled as "[REDACTED:private-key-pkcs8]" for any query).
     */
    private SecretGate.Screened screenContent(Id team, String field, String content) {
        SecretGate.Screened screened = secrets.screen(team, field, content);
        if (!screened.redactions().isEmpty()
                && !HAS_WORDS
                        .matcher(MARKER.matcher(screened.text()).replaceAll(""))
                        .find()) {
            throw new SecretRejected(
                    field,
                    screened.redactions(),
                    "nothing else would be left to remember once they are redacted, so nothing was stored");
        }
        return screened;
    }

    private static final java.util.regex.Pattern MARKER = java.util.regex.Pattern.compile("\\[REDACTED:[^\\]]*]");
    private static final java.util.regex.Pattern HAS_WORDS = java.util.regex.Pattern.compile("[\\p{L}\\p{N}]");

    /** The context goes through the same secret gate as the content: it is stored and searched just the same. */
    private SecretGate.Screened screenContext(Id team, String field, String context) {
        return context == null ? new SecretGate.Screened(null, List.of()) : secrets.screen(team, field, context);
    }

    /** A client's {@code occurred_at} must lie between 1970 and now (plus clock skew): see {@link Checks#bounded}. */
    private void inBounds(String field, Instant occurredAt) {
        Checks c = new Checks();
        c.bounded(field, occurredAt, now());
        c.throwIfAny();
    }

    public Memory get(Caller caller, Id team, Id id) {
        caller.requireMember(team);
        return readable(visible(caller, team, id));
    }

    /** A memory as it may leave the service: whatever the current secret rules flag is redacted. */
    public Memory readable(Memory m) {
        return m.withContent(secrets.forRead(m.content()))
                .withContext(m.context() == null ? null : secrets.forRead(m.context()));
    }

    /** Applies {@code patch} only if the memory is still at {@code expectedVersion} (HTTP If-Match). */
    public Saved patch(Caller caller, Id team, Id id, long expectedVersion, PatchDraft draft) {
        caller.requireMember(team);
        MemoryPatch patch = draft.validate(limits);
        inBounds("occurred_at", patch.occurredAt());
        SecretGate.Screened screened = patch.content() == null ? null : screenContent(team, "content", patch.content());
        Memory current = visible(caller, team, id);
        if (SyncedFacts.isProjection(current)) {
            throw new SyncedFactMemory(team, id, "changed");
        }
        if (current.version() != expectedVersion) {
            throw new VersionConflict("memory " + id, expectedVersion, current.version());
        }
        indexer.requireCompatibleModel();
        Memory updated = current.withChanges(patch);
        if (screened != null) {
            updated = updated.withContent(screened.text());
        }
        store.replace(updated);
        indexQuietly(List.of(updated));
        return new Saved(updated, screened == null ? List.of() : screened.redactions());
    }

    /** Deletes the memory; with {@code expectedVersion} non-null only if it is still at that version. */
    public void delete(Caller caller, Id team, Id id, Long expectedVersion) {
        caller.requireMember(team);
        Optional<Memory> stored = store.get(team, id);
        if (stored.isEmpty()) {
            cascade.deleted(team, id); // gone already: a repeated delete finishes a purge a failure interrupted
        }
        Memory current = stored.filter(m -> m.visibleTo(caller.user()))
                .orElseThrow(() -> new NotFound("memory " + id + " in team " + team));
        if (SyncedFacts.isProjection(current)) {
            throw new SyncedFactMemory(team, id, "deleted");
        }
        if (expectedVersion != null && current.version() != expectedVersion) {
            throw new VersionConflict("memory " + id, expectedVersion, current.version());
        }
        store.delete(team, id, current.version());
        VectorIndex.Key tombstone = new VectorIndex.Key(team, id, current.version() + 1);
        try {
            indexer.remove(List.of(tombstone));
        } catch (RuntimeException e) {
            // The record is already gone from every read path (reads hydrate from the store); the tombstone stays
            // pending and the background indexer removes the vectors.
            LOG.log(Level.WARNING, "index removal deferred for memory " + id + ": " + e);
        }
        // after the record, so no context assembled meanwhile can show the memory again; a failure here is reported
        // (the copies left are hidden on restore, which re-reads the record) and repeating the delete finishes it
        cascade.deleted(team, id);
    }

    public Listing list(Caller caller, Id team, ListDraft draft) {
        caller.requireMember(team);
        ListQuery query = draft.validate(team, caller.user());
        Page page = store.list(query);
        return new Listing(
                page.memories().stream().map(this::readable).toList(),
                page.next() == null ? null : ListDraft.encode(page.next(), query.order()));
    }

    /** One page of a listing and the opaque cursor of the next page (null on the last page). */
    public record Listing(List<Memory> memories, String nextCursor) {}

    /** Stores keep milliseconds; answering with the same precision keeps a create and a later get identical. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }

    private Memory visible(Caller caller, Id team, Id id) {
        return store.get(team, id)
                .filter(m -> m.visibleTo(caller.user()))
                .orElseThrow(() -> new NotFound("memory " + id + " in team " + team));
    }

    private static Memory build(Caller caller, Id team, NewMemory n, Instant now) {
        Id id = new Id(UlidCreator.getMonotonicUlid().toString().toLowerCase(Locale.ROOT));
        return new Memory(
                id,
                team,
                n.scope() == Scope.USER ? caller.user() : null,
                n.scope(),
                n.type(),
                n.content(),
                n.tags(),
                n.importance(),
                n.confidence(),
                n.occurredAt(),
                now,
                null,
                0,
                n.sourceSessionId(),
                n.evidence(),
                1,
                MemoryState.ACTIVE,
                null,
                null,
                n.context());
    }

    /**
     * The store write is the acknowledgement; indexing right away only makes the memory recallable sooner. If it
     * fails the record stays pending in the store and the background indexer finishes the job, so the client must
     * not be told to retry (a retry would create a duplicate).
     */
    private void indexQuietly(List<Memory> memories) {
        try {
            indexer.index(memories);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "indexing deferred for " + memories.size() + " memories: " + e);
        }
    }
}
