package dev.cairn.model.sync;

import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.validation.Checks;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Team sync, the seed's protocol (seeds/003, step 4): versioned deltas against a team version, a change feed,
 * conflict policies.
 *
 * <p><b>Versions.</b> The team version counts commits. A fact's version is the team version of the commit that last
 * changed it (the seed's logical clock); an op's optional {@code version} is the version the fact gets,
 * {@code base_version + 1}.
 *
 * <p><b>Commit.</b> The materializer first catches up with the log. {@code base_version} equal to the head: the delta
 * is applied as head + 1. An older base: the ops whose fact was changed by a commit after {@code base_version}
 * conflict; with none the delta is applied on top of the head ({@code rebased_from}); with some the team's policy
 * decides. The commit is written at head + 1 with {@code attribute_not_exists} — the single linearization point; if
 * another commit took that version, catch up and check again. Ops that change nothing (a delete of an unknown or
 * deleted fact, an upsert equal to the fact) are dropped; a delta of only those commits nothing.
 *
 * <p><b>Idempotency.</b> A key is scoped to the client and stored with a digest of the delta it came with
 * ({@link Commit#storedKey}); without a key the digest of (base, ops) is the key, so a retried delta is recognised
 * either way. Materializing a commit claims its key. A retry — also after a crash between the commit and the answer —
 * catches up first, finds its key claimed and answers as the first time; the same key with another delta is refused
 * (422). If two copies of a request race and both commit, the later commit is void (its key is already claimed): it
 * changes nothing, in the materializer, in a rebuild and in the change feed alike.
 *
 * <p><b>Policies</b> (per team): {@code reject} (409 listing the conflicting facts; nothing applied),
 * {@code last_writer_wins} (applied; the overwritten value kept as a conflict record), {@code keep_both} (the other
 * ops applied; the conflicting ones queued as open conflicts to resolve; with every op in conflict the answer is
 * {@code queued}, nothing applied).
 *
 * <p>Materialized facts are team memories (scope team, id {@link SyncReplay#memoryId}): recall finds them; deleting a
 * fact deletes its memory.
 */
public final class SyncService {

    private static final System.Logger LOG = System.getLogger(SyncService.class.getName());
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}");

    public enum Policy {
        REJECT,
        LAST_WRITER_WINS,
        KEEP_BOTH;

        public static Policy fromConfig(String raw) {
            return valueOf(raw.trim().toUpperCase(Locale.ROOT).replace('-', '_'));
        }
    }

    /** @param maxOps most ops in one delta; @param maxBytes largest delta (its contents, UTF-8) */
    public record Limits(int maxOps, int maxBytes, int maxContentBytes, int pageSize) {
        public static Limits defaults() {
            return new Limits(500, 1024 * 1024, 32 * 1024, 1000);
        }
    }

    public record OpDraft(
            String op,
            String factId,
            Long version,
            String content,
            String type,
            List<String> tags,
            Double confidence) {}

    public record SyncDraft(
            String teamId, String clientId, Long baseVersion, String idempotencyKey, List<OpDraft> delta) {
        public SyncDraft(String clientId, Long baseVersion, String idempotencyKey, List<OpDraft> delta) {
            this(null, clientId, baseVersion, idempotencyKey, delta);
        }
    }

    public enum Outcome {
        /** committed (or nothing to change): the team holds the delta at {@code version} */
        APPLIED,
        /** keep_both with every op in conflict: nothing applied, every op queued as an open conflict */
        QUEUED
    }

    /**
     * {@code rebasedFrom}: the client's base when the delta was applied on a newer head (null otherwise);
     * {@code queued}: ids of conflicts kept open under keep_both.
     */
    /**
     * {@code redactions}: what the team's secret policy replaced in this delta's contents, per op (offsets into the
     * content as sent), so a client learns that the fact it wrote is not the text it sent.
     */
    public record Applied(Outcome outcome, long version, Long rebasedFrom, List<Id> queued, List<Redacted> redactions) {
        public Applied(Outcome outcome, long version, Long rebasedFrom, List<Id> queued) {
            this(outcome, version, rebasedFrom, queued, List.of());
        }

        public Applied(long version, List<Id> queued) {
            this(Outcome.APPLIED, version, null, queued);
        }

        Applied withRedactions(List<Redacted> r) {
            return new Applied(outcome, version, rebasedFrom, queued, r);
        }
    }

    /** The secrets redacted from one op's content ({@code delta[op].content}). */
    public record Redacted(int op, Id factId, List<Finding> findings) {}

    public record Changes(long version, List<Commit> changes, Long nextSince) {}

    private final SyncStore store;
    private final MemoryStore memories;
    private final Indexer indexer;
    private final SecretGate secrets;
    private final Clock clock;
    private final Limits limits;
    /** Per team, the lock its materializer holds in this process (see {@link #catchUp}); one small object a team. */
    private final Map<Id, Object> materializing = new ConcurrentHashMap<>();

    private final Function<Id, Policy> policies;

    public SyncService(
            SyncStore store,
            MemoryStore memories,
            Indexer indexer,
            SecretGate secrets,
            Clock clock,
            Limits limits,
            Function<Id, Policy> policies) {
        this.store = store;
        this.memories = memories;
        this.indexer = indexer;
        this.secrets = secrets;
        this.clock = clock;
        this.limits = limits;
        this.policies = policies;
    }

    public Applied sync(Caller caller, Id team, SyncDraft draft) {
        caller.requireMember(team);
        Valid v = validate(team, draft);
        return commit(caller, team, v, policies.apply(team)).withRedactions(v.redactions());
    }

    /**
     * The key the commit of {@code draft} is stored under ({@link Commit#storedKey}); validates the draft as
     * {@link #sync} would. Lets a test write the commit a crashed server left behind.
     */
    public String storedKey(Id team, SyncDraft draft) {
        return validate(team, draft).storedKey();
    }

    /**
     * A validated delta. {@code storedKey} is {@link Commit#storedKey}: the client's key (or, without one, the
     * digest itself) and the digest of the delta.
     */
    private record Valid(Id clientId, long base, String storedKey, List<SyncOp> ops, List<Redacted> redactions) {
        Valid(Id clientId, long base, String storedKey, List<SyncOp> ops) {
            this(clientId, base, storedKey, ops, List.of());
        }
    }

    private Applied commit(Caller caller, Id team, Valid v, Policy policy) {
        String claim = Commit.claimKey(v.storedKey());
        while (true) {
            catchUp(team);
            Optional<Applied> retry = firstAnswer(team, claim, v);
            if (retry.isPresent()) {
                return retry.get(); // a retry: the first answer, nothing applied twice
            }
            long head = store.materialized(team);
            if (v.base() > head) {
                throw new InvalidInput(
                        "base_version",
                        "is " + v.base() + " but team " + team + " is at version " + head
                                + ": send the version you last pulled");
            }
            Set<Id> ids = new LinkedHashSet<>();
            v.ops().forEach(op -> ids.add(op.factId()));
            Map<Id, FactState> current = store.facts(team, ids);
            List<SyncOp> apply = new ArrayList<>();
            List<SyncConflict.Conflict> conflicts = new ArrayList<>();
            for (SyncOp op : v.ops()) {
                FactState cur = current.get(op.factId());
                if (changesNothing(cur, op)) {
                    continue;
                }
                if (cur != null && cur.commit() > v.base()) {
                    conflicts.add(new SyncConflict.Conflict(cur, op, v.base()));
                    if (policy != Policy.LAST_WRITER_WINS) {
                        continue;
                    }
                }
                apply.add(op.at(head + 1));
            }
            if (!conflicts.isEmpty() && policy == Policy.REJECT) {
                throw new SyncConflict(head, conflicts);
            }
            Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
            if (apply.isEmpty()) {
                List<Id> queued = queue(team, v.clientId(), claim, conflicts, now, "open");
                return queued.isEmpty()
                        ? new Applied(Outcome.APPLIED, head, null, List.of()) // nothing to change
                        : new Applied(Outcome.QUEUED, head, null, queued);
            }
            Commit commit = new Commit(team, head + 1, v.clientId(), v.storedKey(), caller.user(), now, apply);
            if (!store.appendCommit(commit)) {
                continue; // another delta took head + 1: catch up and check again
            }
            catchUp(team);
            long holder = store.idempotency(team, claim).orElse(commit.version());
            if (holder != commit.version()) {
                // a copy of this request (or another delta under the same key) committed first: ours is void
                return firstAnswer(team, claim, v).orElseThrow();
            }
            List<Id> queued = queue(
                    team, v.clientId(), claim, conflicts, now, policy == Policy.KEEP_BOTH ? "open" : "overwritten");
            return new Applied(
                    Outcome.APPLIED,
                    commit.version(),
                    head == v.base() ? null : v.base(),
                    policy == Policy.KEEP_BOTH ? queued : List.of());
        }
    }

    /**
     * The answer to a delta whose key is already claimed: the first answer when it is the same delta, 422 when the
     * key was used for another one. The first commit's base is this request's base (the digest covers it when there
     * is no key; with a key, a retry after a pull may send a newer base, so the answer says the first one).
     */
    private Optional<Applied> firstAnswer(Id team, String claim, Valid v) {
        Optional<Long> first = store.idempotency(team, claim);
        if (first.isEmpty()) {
            return Optional.empty();
        }
        long version = first.get();
        List<Commit> at = store.commits(team, version - 1, 1);
        Commit original = at.isEmpty() || at.get(0).version() != version ? null : at.get(0);
        String fingerprint = Commit.fingerprintOf(v.storedKey());
        if (original != null
                && !original.fingerprint().isEmpty()
                && !original.fingerprint().equals(fingerprint)) {
            throw new IdempotencyKeyReused(v.clientId(), claim.substring(claim.indexOf('/') + 1), version);
        }
        return Optional.of(new Applied(Outcome.APPLIED, version, v.base() < version - 1 ? v.base() : null, List.of()));
    }

    /** A delete of a fact that does not exist (or no longer does), or an upsert equal to the fact, changes nothing. */
    private static boolean changesNothing(FactState cur, SyncOp op) {
        if (op.kind() == SyncOp.Kind.DELETE) {
            return cur == null || cur.deleted();
        }
        return cur != null
                && !cur.deleted()
                && cur.content().equals(op.content())
                && (op.type() == null || op.type() == cur.type())
                && (op.tags() == null || op.tags().equals(cur.tags()))
                && (op.confidence() == null || op.confidence() == cur.confidence());
    }

    /**
     * Keeps the conflicts as records. Their ids are a digest of the request's key and the fact, so a retried delta
     * whose ops were all queued finds its records instead of queueing them again.
     */
    private List<Id> queue(
            Id team, Id clientId, String claim, List<SyncConflict.Conflict> conflicts, Instant now, String status) {
        List<Id> ids = new ArrayList<>();
        for (SyncConflict.Conflict c : conflicts) {
            Id id = new Id(
                    "cf" + digest(claim + "\n" + c.proposed().factId().value()).substring(0, 24));
            ids.add(id);
            if (store.conflict(team, id).isPresent()) {
                continue;
            }
            FactState cur = c.current();
            store.putConflict(new ConflictRecord(
                    team,
                    id,
                    c.proposed().factId(),
                    c.baseVersion(),
                    cur == null ? 0 : cur.version(),
                    cur == null || cur.deleted() ? null : cur.content(),
                    c.proposed(),
                    clientId,
                    now,
                    status,
                    null));
        }
        return ids;
    }

    private static String digest(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Materializes every commit the head has not reached yet, in order. One materializer per team at a time in this
     * process: two that overlap could each read a fact before the other wrote it, and the slower one would then write
     * an older commit's content over the memory of a newer one (the memory's version check cannot see which commit a
     * content came from). Seen under load in the eight-client sync contract test.
     */
    public void catchUp(Id team) {
        synchronized (materializing.computeIfAbsent(team, t -> new Object())) {
            while (true) {
                long head = store.materialized(team);
                List<Commit> next = store.commits(team, head, limits.pageSize());
                if (next.isEmpty()) {
                    return;
                }
                for (Commit c : next) {
                    materialize(c);
                    store.advanceMaterialized(team, c.version());
                }
            }
        }
    }

    private void materialize(Commit c) {
        if (store.claimIdempotency(c.team(), c.claimKey(), c.version()) != c.version()) {
            store.markVoid(c.team(), c.version()); // a copy of an earlier request: changes nothing
            return;
        }
        Set<Id> ids = new LinkedHashSet<>();
        c.ops().forEach(op -> ids.add(op.factId()));
        Map<Id, FactState> facts = new HashMap<>(store.facts(c.team(), ids));
        List<Memory> toIndex = new ArrayList<>();
        for (SyncOp op : c.ops()) {
            FactState prev = facts.get(op.factId());
            if (prev != null && prev.commit() >= c.version()) {
                continue; // applied before a crash: the fact already reflects this commit
            }
            FactState next = SyncReplay.apply(c.team(), prev, op, c.version());
            project(prev, next, c.committedAt(), toIndex);
            store.putFact(next);
            facts.put(op.factId(), next);
        }
        index(toIndex);
    }

    /**
     * Indexes a commit's memories together: one embedding batch and one index write per commit rather than per op. A
     * crash before it leaves them in the record store's index backlog, which the background indexer drains.
     */
    private void index(List<Memory> toIndex) {
        if (toIndex.isEmpty()) {
            return;
        }
        try {
            indexer.index(toIndex);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "indexing of " + toIndex.size() + " team fact memories deferred: " + e);
        }
    }

    /** The fact as a team memory: created, changed or deleted to match (idempotent, so replays are harmless). */
    private void project(FactState prev, FactState next, Instant at, List<Memory> toIndex) {
        Optional<Memory> stored = memories.get(next.team(), next.memoryId());
        if (prev != null && !prev.deleted() && !prev.memoryId().equals(next.memoryId())) {
            removeMemory(prev.team(), prev.memoryId());
        }
        if (next.deleted()) {
            removeMemory(next.team(), next.memoryId());
            return;
        }
        Memory m;
        if (stored.isEmpty()) {
            m = new Memory(
                    next.memoryId(),
                    next.team(),
                    null,
                    Scope.TEAM,
                    next.type(),
                    next.content(),
                    next.tags(),
                    0.5,
                    next.confidence(),
                    at,
                    at,
                    null,
                    0,
                    null,
                    List.of(),
                    1,
                    MemoryState.ACTIVE);
            try {
                memories.insertAll(List.of(m));
            } catch (VersionConflict e) {
                return; // written by a concurrent materializer of the same commit
            }
        } else {
            Memory s = stored.get();
            if (s.content().equals(next.content())
                    && s.type() == next.type()
                    && s.tags().equals(next.tags())
                    && s.confidence() == next.confidence()) {
                return;
            }
            m = new Memory(
                    s.id(),
                    s.team(),
                    null,
                    Scope.TEAM,
                    next.type(),
                    next.content(),
                    next.tags(),
                    s.importance(),
                    next.confidence(),
                    at,
                    s.createdAt(),
                    s.lastAccessedAt(),
                    s.accessCount(),
                    null,
                    List.of(),
                    s.version() + 1,
                    MemoryState.ACTIVE);
            try {
                memories.replace(m);
            } catch (VersionConflict e) {
                return;
            }
        }
        toIndex.add(m);
    }

    private void removeMemory(Id team, Id memoryId) {
        Optional<Memory> m = memories.get(team, memoryId);
        if (m.isEmpty()) {
            return;
        }
        try {
            memories.delete(team, memoryId, m.get().version());
            indexer.remove(List.of(new VectorIndex.Key(team, memoryId, m.get().version() + 1)));
        } catch (VersionConflict e) {
            // deleted meanwhile
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index removal of team fact memory " + memoryId + " deferred: " + e);
        }
    }

    /** The change feed: commits after {@code since}, a page at a time; void commits are listed with no ops. */
    public Changes changes(Caller caller, Id team, Long since, Integer limit) {
        caller.requireMember(team);
        Checks c = new Checks();
        if (since != null && since < 0) {
            c.fail("since", "must be 0 or more");
        }
        Integer pageSize = c.range("limit", limit, 1, limits.pageSize());
        c.throwIfAny();
        catchUp(team);
        long from = since == null ? 0 : since;
        long at = store.materialized(team);
        if (from > at) {
            // a team's version never goes back: the client's state belongs to another server (or one restored from a
            // backup), and an empty page would let it wait forever for changes it will never see
            throw new InvalidInput(
                    "since",
                    "is " + from + " but team " + team + " is at version " + at
                            + ": a team's version never goes back, so this state comes from another team server (or"
                            + " one restored from a backup); pull from since=0");
        }
        int size = pageSize == null ? Math.min(100, limits.pageSize()) : pageSize;
        List<Commit> page = store.commits(team, from, size);
        Set<Long> voids = page.isEmpty()
                ? Set.of()
                : store.voids(team, from, page.get(page.size() - 1).version());
        List<Commit> out = new ArrayList<>(page.size());
        for (Commit commit : page) {
            boolean live = !voids.contains(commit.version());
            out.add(
                    live
                            ? commit
                            : new Commit(
                                    commit.team(),
                                    commit.version(),
                                    commit.clientId(),
                                    commit.idempotencyKey(),
                                    commit.committer(),
                                    commit.committedAt(),
                                    List.of()));
        }
        long head = store.materialized(team);
        Long next = out.isEmpty() || out.get(out.size() - 1).version() >= head
                ? null
                : out.get(out.size() - 1).version();
        return new Changes(head, out, next);
    }

    /** Rebuilds the materialized facts and their memories from the log; returns the number of facts. */
    public int rebuild(Caller caller, Id team) {
        caller.requireMember(team);
        synchronized (materializing.computeIfAbsent(team, t -> new Object())) {
            return rebuildLocked(team);
        }
    }

    private int rebuildLocked(Id team) {
        List<Commit> log = new ArrayList<>();
        long after = 0;
        while (true) {
            List<Commit> page = store.commits(team, after, limits.pageSize());
            if (page.isEmpty()) {
                break;
            }
            log.addAll(page);
            after = page.get(page.size() - 1).version();
        }
        Map<Id, FactState> truth = SyncReplay.replay(log);
        for (FactState stale : store.allFacts(team)) {
            FactState right = truth.get(stale.factId());
            if (right == null || !right.memoryId().equals(stale.memoryId())) {
                removeMemory(team, stale.memoryId());
            }
        }
        Instant at = clock.instant();
        List<Memory> toIndex = new ArrayList<>();
        for (FactState f : truth.values()) {
            project(null, f, at, toIndex);
            if (toIndex.size() >= limits.maxOps()) {
                index(toIndex);
                toIndex = new ArrayList<>();
            }
        }
        index(toIndex);
        store.resetMaterialized(team, List.copyOf(truth.values()), after);
        return truth.size();
    }

    public List<ConflictRecord> conflicts(Caller caller, Id team) {
        caller.requireMember(team);
        return store.conflicts(team);
    }

    /**
     * The team's conflicts, only those with {@code status} ({@code open}, {@code resolved} or {@code overwritten})
     * and proposed by {@code clientId} when given: what a replica asks on each pass while one of its changes waits.
     */
    public List<ConflictRecord> conflicts(Caller caller, Id team, String status, String clientId) {
        Checks c = new Checks();
        if (status != null && !Set.of("open", "resolved", "overwritten").contains(status)) {
            c.fail("status", "must be open, resolved or overwritten");
        }
        Id client = clientId == null ? null : c.id("client_id", clientId, false);
        c.throwIfAny();
        return conflicts(caller, team).stream()
                .filter(r -> status == null || r.status().equals(status))
                .filter(r -> client == null || r.clientId().equals(client))
                .toList();
    }

    /** Resolves an open conflict: keep_current, take_proposed or merge (with {@code content}). */
    public ConflictRecord resolve(Caller caller, Id team, Id conflictId, String resolution, String content) {
        caller.requireMember(team);
        ConflictRecord c = store.conflict(team, conflictId)
                .orElseThrow(() -> new NotFound("conflict " + conflictId + " in team " + team));
        if (resolution == null
                || !Set.of("keep_current", "take_proposed", "merge").contains(resolution)) {
            throw new InvalidInput("resolution", "must be keep_current, take_proposed or merge");
        }
        if (resolution.equals("merge") && (content == null || content.isBlank())) {
            throw new InvalidInput("content", "is required to merge");
        }
        if (!resolution.equals("merge") && content != null) {
            throw new InvalidInput("content", "is only for merge: " + resolution + " takes no content (leave it out)");
        }
        if (!c.status().equals("open")) {
            throw new ConflictNotOpen("conflict " + c.id() + " is " + c.status()
                    + (c.resolution() != null ? " (" + c.resolution() + ")" : "") + ", not open: nothing to resolve");
        }
        if (!resolution.equals("keep_current")) {
            catchUp(team);
            FactState now = store.facts(team, List.of(c.factId())).get(c.factId());
            long factVersion = now == null ? 0 : now.version();
            if (factVersion != c.currentVersion()) {
                // the proposed value was weighed against the value of then: committing it now would overwrite a
                // change made since, which nobody has seen beside it
                throw new ConflictNotOpen("fact " + c.factId() + " changed after conflict " + c.id() + " was queued"
                        + " (it was at version " + c.currentVersion() + ", it is at " + factVersion + "): read it"
                        + " (GET /v1/teams/" + team + "/changes) and send the value you want as a new delta, or"
                        + " resolve this one with keep_current");
            }
            long head = store.materialized(team);
            SyncOp p = c.proposed();
            SyncOp op = resolution.equals("merge")
                    ? new SyncOp(
                            SyncOp.Kind.UPSERT,
                            c.factId(),
                            head + 1,
                            screen(team, "content", content),
                            p.type(),
                            p.tags(),
                            p.confidence())
                    : p.at(head + 1);
            String key = "resolve-" + c.id().value();
            List<SyncOp> ops = List.of(op);
            commit(
                    caller,
                    team,
                    new Valid(c.clientId(), head, Commit.storedKey(c.clientId(), key, fingerprint(ops)), ops),
                    Policy.LAST_WRITER_WINS);
        }
        ConflictRecord done = new ConflictRecord(
                c.team(),
                c.id(),
                c.factId(),
                c.baseVersion(),
                c.currentVersion(),
                c.currentContent(),
                c.proposed(),
                c.clientId(),
                c.createdAt(),
                "resolved",
                resolution);
        store.updateConflict(done, "open");
        return done;
    }

    private Valid validate(Id team, SyncDraft d) {
        if (d == null) {
            throw new InvalidInput("body", "is required: {client_id, base_version, delta}");
        }
        Checks c = new Checks();
        if (d.teamId() != null && !d.teamId().equals(team.value())) {
            c.fail(
                    "team_id",
                    "is '" + d.teamId() + "' but the path's team is '" + team + "': leave it out or make "
                            + "them equal");
        }
        Id clientId = c.id("client_id", d.clientId(), true);
        if (d.baseVersion() == null) {
            c.fail("base_version", "is required: the team version the client last pulled (0 or more)");
        } else if (d.baseVersion() < 0) {
            c.fail("base_version", "is " + d.baseVersion() + "; a team version is 0 or more (0 before any pull)");
        }
        if (d.idempotencyKey() != null && !KEY.matcher(d.idempotencyKey()).matches()) {
            c.fail("idempotency_key", "must be 1–128 characters of A–Z, a–z, 0–9, '_', '.', ':' or '-' (or left out)");
        }
        if (d.delta() == null || d.delta().isEmpty()) {
            c.fail("delta", "must hold at least one op");
            c.throwIfAny();
        }
        if (d.delta().size() > limits.maxOps()) {
            throw new ContentTooLarge("delta", d.delta().size(), limits.maxOps(), "ops (cairn.sync.max-ops)");
        }
        long bytes = 0;
        for (OpDraft o : d.delta()) {
            bytes += o == null || o.content() == null ? 0 : o.content().getBytes(StandardCharsets.UTF_8).length;
        }
        if (bytes > limits.maxBytes()) {
            throw new ContentTooLarge("delta", bytes, limits.maxBytes());
        }
        long base = d.baseVersion() == null ? 0 : d.baseVersion();
        List<SyncOp> ops = new ArrayList<>();
        Set<Id> seen = new LinkedHashSet<>();
        for (int i = 0; i < d.delta().size(); i++) {
            OpDraft o = d.delta().get(i);
            String f = "delta[" + i + "]";
            if (o == null) {
                c.fail(f, "must be an object");
                continue;
            }
            Id factId = c.id(f + ".fact_id", o.factId(), true);
            if (factId != null && !seen.add(factId)) {
                c.fail(f + ".fact_id", "appears twice in one delta");
            }
            if (o.version() != null && d.baseVersion() != null && o.version() != base + 1) {
                c.fail(
                        f + ".version",
                        "is " + o.version() + " but must be base_version + 1 = " + (base + 1)
                                + ": the version the fact gets (or leave it out)");
            }
            SyncOp.Kind kind = null;
            if ("upsert".equals(o.op())) {
                kind = SyncOp.Kind.UPSERT;
            } else if ("delete".equals(o.op())) {
                kind = SyncOp.Kind.DELETE;
            } else {
                c.fail(f + ".op", "must be upsert or delete");
            }
            MemoryType type =
                    o.type() == null ? null : c.oneOf(f + ".type", o.type(), MemoryType::fromWire, MemoryType.ALLOWED);
            List<Id> tags = c.ids(f + ".tags", o.tags(), 32);
            Double confidence = c.unitInterval(f + ".confidence", o.confidence());
            String content = o.content();
            if (kind == SyncOp.Kind.UPSERT) {
                if (content == null || content.isBlank()) {
                    c.fail(f + ".content", "is required for an upsert");
                } else if (content.getBytes(StandardCharsets.UTF_8).length > limits.maxContentBytes()) {
                    throw new ContentTooLarge(
                            f + ".content", content.getBytes(StandardCharsets.UTF_8).length, limits.maxContentBytes());
                }
            }
            if (c.ok() && kind != null && factId != null) {
                ops.add(new SyncOp(
                        kind, factId, base + 1, kind == SyncOp.Kind.UPSERT ? content : null, type, tags, confidence));
            }
        }
        c.throwIfAny();
        // the secret gate after validation, so a bad delta is refused whole before anything is scanned or redacted
        List<SyncOp> screened = new ArrayList<>(ops.size());
        List<Redacted> redacted = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            SyncOp op = ops.get(i);
            if (op.kind() == SyncOp.Kind.DELETE) {
                screened.add(op);
                continue;
            }
            SecretGate.Screened s = secrets.screen(team, "delta[" + i + "].content", op.content());
            if (!s.redactions().isEmpty()) {
                redacted.add(new Redacted(i, op.factId(), s.redactions()));
            }
            screened.add(
                    new SyncOp(op.kind(), op.factId(), op.version(), s.text(), op.type(), op.tags(), op.confidence()));
        }
        // with a key the digest covers the ops (a retry after a pull may carry a newer base); without one, the seed's
        // "same client, same base, same ops"
        String fingerprint = d.idempotencyKey() != null
                ? fingerprint(screened.stream().map(op -> op.at(0)).toList())
                : fingerprint(screened);
        String key = d.idempotencyKey() != null ? d.idempotencyKey() : "~" + fingerprint;
        return new Valid(clientId, base, Commit.storedKey(clientId, key, fingerprint), screened, List.copyOf(redacted));
    }

    /** 32 hex digits of SHA-256 over the ops in the log's own encoding (their versions included). */
    private static String fingerprint(List<SyncOp> ops) {
        return digest(OpsCodec.encode(ops)).substring(0, 32);
    }

    private String screen(Id team, String field, String content) {
        return secrets.screen(team, field, content).text();
    }
}
