package dev.cairn.model.sync;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryPatch;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretRejected;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The client half of the seed's protocol: this server's team memories kept in sync with a team on a remote Cairn. A
 * local team memory is a remote fact with the memory's id as {@code fact_id}; a remote fact becomes a local team
 * memory with the fact's id as its id, so an edit on either side is an edit of the same fact.
 *
 * <p><b>What is uploaded.</b> Only what changed locally since the last sync (the seed's delta upload). The replica
 * keeps, per team, the last version it pulled and the value of each fact as last synced ({@link State#known}); a
 * local team memory that differs from it (or has none) is an upsert, a known fact whose memory is gone a delete. That
 * state is the outbox: derived from the record store on every pass, so a write made while the remote is away, or
 * while this process is down, is never lost.
 *
 * <p><b>One pass.</b> Pull the changes since the last pulled version and merge them (a fact with a local change not
 * yet uploaded keeps the local value, which is uploaded next); then upload the local changes in batches, each one
 * delta based on the pulled version. A local change the team overtook (it changed the same fact before this replica
 * pulled) is sent with the version it was based on, so the team's policy decides, as for any client: reject refuses it
 * (the team's value replaces it here, and the refusal is logged), last_writer_wins applies it (the overwritten value
 * is kept as a conflict record), keep_both queues it for a person ({@link Parked} here until the conflict is resolved;
 * then the team's value is taken). A 409 for changes based on the pulled version means the team moved since the pull:
 * pull, merge, and send again.
 *
 * <p><b>Crashes.</b> The state is saved after every page pulled and every batch applied, and only after the local
 * writes or the remote commit it records. Merging a change twice writes the same value twice; a delta sent again
 * with the same base and ops is recognised by the team server as a retry (same client, base and ops) and not applied
 * twice. Content from the remote passes this server's secret gate before it is stored.
 */
public final class TeamReplica {

    private static final System.Logger LOG = System.getLogger(TeamReplica.class.getName());

    /** The remote team server (adapter: the HTTP client). Errors: {@link SyncConflict} for 409, else unchecked. */
    public interface Remote {
        SyncService.Applied push(Id team, SyncService.SyncDraft delta);

        SyncService.Changes pull(Id team, long since, int limit);

        /** The facts with an open conflict (keep_both) that {@code clientId} proposed: the ones the team still weighs. */
        Set<Id> openConflicts(Id team, Id clientId);
    }

    /** Where the replica keeps its state between passes (adapter: a file per team, replaced atomically). */
    public interface StateStore {
        State load(Id team);

        void save(State state);
    }

    /** A fact's value as last synced. */
    public record Value(String content, MemoryType type, List<Id> tags, double confidence) {
        static Value of(Memory m) {
            return new Value(m.content(), m.type(), m.tags(), m.confidence());
        }
    }

    /**
     * A local change the team queued as an open conflict (keep_both): {@code proposal} is the value sent, null for a
     * delete. While it is open the fact keeps its local value here and nothing of it is sent, not even a later edit.
     */
    public record Parked(Value proposal) {
        boolean heldBy(Optional<Memory> local) {
            return proposal == null
                    ? local.isEmpty()
                    : local.isPresent() && Value.of(local.get()).equals(proposal);
        }
    }

    /**
     * {@code pulled}: the remote team version merged up to; {@code known}: each fact's value as the team last had it;
     * {@code bases}: for a fact whose local change was overtaken by a remote change pulled before it was uploaded, the
     * team version that local change was based on (it is sent with that base, so the team's policy sees the
     * conflict); {@code parked}: local changes the team queued as open conflicts.
     */
    public record State(Id team, long pulled, Map<Id, Value> known, Map<Id, Long> bases, Map<Id, Parked> parked) {
        public State {
            known = Map.copyOf(known);
            bases = Map.copyOf(bases);
            parked = Map.copyOf(parked);
        }

        public State(Id team, long pulled, Map<Id, Value> known) {
            this(team, pulled, known, Map.of(), Map.of());
        }

        public static State empty(Id team) {
            return new State(team, 0, Map.of());
        }
    }

    /**
     * What one pass did. {@code conflicts}: ops the team found in conflict (a 409 retried, or queued);
     * {@code parked}: local changes waiting for a person to resolve their conflict on the team; {@code refused}: local
     * changes the team refused under its reject policy, replaced here by the team's value.
     */
    public record Report(
            Id team,
            int pulledCommits,
            int merged,
            int uploaded,
            int conflicts,
            long version,
            int parked,
            int refused) {
        public Report(Id team, int pulledCommits, int merged, int uploaded, int conflicts, long version) {
            this(team, pulledCommits, merged, uploaded, conflicts, version, 0, 0);
        }
    }

    public record Settings(Id clientId, int batchSize, int pageSize, int maxRetries) {
        public Settings {
            if (batchSize < 50 || batchSize > 500) {
                throw new IllegalArgumentException(
                        "the sync batch size is " + batchSize + "; the seed's range is 50 to 500 ops per delta");
            }
        }
    }

    private final Remote remote;
    private final StateStore states;
    private final MemoryStore memories;
    private final Indexer indexer;
    private final SecretGate secrets;
    private final Clock clock;
    private final Settings settings;

    public TeamReplica(
            Remote remote,
            StateStore states,
            MemoryStore memories,
            Indexer indexer,
            SecretGate secrets,
            Clock clock,
            Settings settings) {
        this.remote = remote;
        this.states = states;
        this.memories = memories;
        this.indexer = indexer;
        this.secrets = secrets;
        this.clock = clock;
        this.settings = settings;
    }

    /** One pass for {@code team}: pull and merge, then upload; serialised per replica (one pass at a time). */
    public synchronized Report syncOnce(Id team) {
        Counters n = new Counters();
        State state = settleParked(pull(states.load(team), n), n);
        for (int attempt = 0; ; attempt++) {
            List<Pending> pending = pending(state);
            state = pruneBases(state, pending);
            if (pending.isEmpty()) {
                break;
            }
            try {
                state = upload(state, pending, n);
                break;
            } catch (SyncConflict e) {
                n.conflicts += e.conflicts().size();
                if (attempt >= settings.maxRetries()) {
                    LOG.log(Level.WARNING, "team " + team + ": still in conflict after " + attempt + " retries");
                    break;
                }
                state = pull(states.load(team), n);
            }
        }
        return new Report(
                team,
                n.commits,
                n.merged,
                n.uploaded,
                n.conflicts,
                state.pulled(),
                state.parked().size(),
                n.refused);
    }

    private static final class Counters {
        int commits;
        int merged;
        int uploaded;
        int conflicts;
        int refused;
    }

    /** The state being changed during a pass. */
    private static final class Work {
        final Id team;
        long pulled;
        final Map<Id, Value> known;
        final Map<Id, Long> bases;
        final Map<Id, Parked> parked;

        Work(State s) {
            team = s.team();
            pulled = s.pulled();
            known = new HashMap<>(s.known());
            bases = new HashMap<>(s.bases());
            parked = new HashMap<>(s.parked());
        }

        State state() {
            return new State(team, pulled, known, bases, parked);
        }
    }

    // ---- pull and merge

    private State pull(State state, Counters n) {
        Work w = new Work(state);
        while (true) {
            SyncService.Changes page = remote.pull(w.team, w.pulled, settings.pageSize());
            for (Commit c : page.changes()) {
                for (SyncOp op : c.ops()) {
                    if (merge(w, op, c.version(), c.committedAt())) {
                        n.merged++;
                    }
                }
                w.pulled = c.version();
                n.commits++;
            }
            if (!page.changes().isEmpty()) {
                state = w.state();
                states.save(state); // after the page's local writes: a crash re-merges it, which writes nothing new
            }
            if (page.nextSince() == null) {
                return state;
            }
        }
    }

    /**
     * Merges one remote op (of the commit at {@code version}) into local memory; true when a local memory changed.
     *
     * <p>A fact changed here and not uploaded yet keeps its local value, but when the team changed it meanwhile the
     * local change remembers the version it was based on ({@link State#bases}): it is sent with that base, so the
     * team server sees the conflict and its policy decides, instead of the later upload silently winning (a trial saw
     * an edit made offline bring back a fact another member had deleted).
     */
    private boolean merge(Work w, SyncOp op, long version, Instant committedAt) {
        Id id = op.factId();
        Optional<Memory> local = memories.get(w.team, id).filter(m -> m.scope() == Scope.TEAM);
        Value before = w.known.get(id);
        // an archived memory (decay) is no local change: its stub's empty content is not a value of the fact, and a
        // team change not taken here would come back from the cold copy on restore, silently on top of the team's
        boolean localChange = local.isPresent()
                ? local.get().state() == MemoryState.ACTIVE
                        && !Value.of(local.get()).equals(before)
                : before != null; // known but gone here: deleted locally, not uploaded yet
        Value after = null;
        if (op.kind() == SyncOp.Kind.UPSERT) {
            String content;
            try {
                content = secrets.screen(w.team, "content", op.content()).text();
            } catch (SecretRejected e) {
                LOG.log(Level.WARNING, "team fact " + id + " not merged: " + e.getMessage());
                if (localChange && !w.parked.containsKey(id)) {
                    // the team changed it all the same: a local change is weighed against that, not sent on top
                    w.bases.putIfAbsent(id, version - 1);
                }
                return false;
            }
            after = new Value(
                    content,
                    op.type() != null ? op.type() : local.map(Memory::type).orElse(MemoryType.FACT),
                    op.tags() != null ? op.tags() : local.map(Memory::tags).orElse(List.of()),
                    op.confidence() != null
                            ? op.confidence()
                            : local.map(Memory::confidence).orElse(1.0));
        }
        if (after == null) {
            w.known.remove(id);
        } else {
            w.known.put(id, after);
        }
        if (w.parked.containsKey(id)) {
            // a change of the team while this replica's proposal waits for a person (or the resolution itself):
            // noted as the team's value, taken here once no conflict of ours on the fact is open (settleParked)
            return false;
        }
        if (after == null
                ? local.isEmpty()
                : local.isPresent() && Value.of(local.get()).equals(after)) {
            w.bases.remove(id); // both sides agree
            return false;
        }
        if (localChange) {
            if (!java.util.Objects.equals(before, after)) {
                w.bases.putIfAbsent(id, version - 1); // the earliest team change the local one did not see
            }
            return false;
        }
        w.bases.remove(id);
        if (after == null) {
            remove(local.get());
        } else {
            write(w.team, id, local, after, committedAt);
        }
        return true;
    }

    /**
     * Parked facts whose conflict is no longer open on the team: they take the team's value as pulled (the resolution,
     * or whatever the team committed since; keep_current commits nothing), unless edited again locally while they
     * waited, which is then a new local change sent with the old base, so the team weighs it against the resolution.
     * A parked fact is never sent again while its conflict is open: a second open conflict on one fact would let the
     * older one's resolution overwrite the newer edit here (a trial saw it).
     */
    private State settleParked(State state, Counters n) {
        if (state.parked().isEmpty()) {
            return state;
        }
        Set<Id> open = remote.openConflicts(state.team(), settings.clientId());
        Work w = new Work(state);
        for (Map.Entry<Id, Parked> e : state.parked().entrySet()) {
            Id id = e.getKey();
            if (open.contains(id)) {
                continue;
            }
            w.parked.remove(id);
            Optional<Memory> local = memories.get(w.team, id).filter(m -> m.scope() == Scope.TEAM);
            if (e.getValue().heldBy(local)) {
                w.bases.remove(id);
                if (adopt(w, id, local)) {
                    n.merged++;
                }
            }
        }
        state = w.state();
        states.save(state);
        return state;
    }

    /** Makes the local memory the team's value as last pulled (gone when the team has none); true when it changed. */
    private boolean adopt(Work w, Id id, Optional<Memory> local) {
        Value team = w.known.get(id);
        if (team == null) {
            local.ifPresent(this::remove);
            return local.isPresent();
        }
        if (local.isPresent() && Value.of(local.get()).equals(team)) {
            return false;
        }
        write(w.team, id, local, team, null);
        return true;
    }

    /**
     * A fact's memory as the remote commit says it: it happened when the team committed it, not when this replica
     * pulled it (a trial's laptop dated a synced fact by its pull, which skewed its freshness and {@code as_of}).
     */
    private void write(Id team, Id id, Optional<Memory> local, Value v, Instant committedAt) {
        Instant now = clock.instant();
        Instant happened = committedAt == null || committedAt.isAfter(now) ? now : committedAt;
        Memory m;
        try {
            if (local.isEmpty()) {
                m = new Memory(
                        id,
                        team,
                        null,
                        Scope.TEAM,
                        v.type(),
                        v.content(),
                        v.tags(),
                        0.5,
                        v.confidence(),
                        happened,
                        now,
                        null,
                        0,
                        null,
                        List.of(),
                        1,
                        MemoryState.ACTIVE);
                memories.insertAll(List.of(m));
            } else {
                m = local.get()
                        .withChanges(new MemoryPatch(
                                v.content(), v.type(), v.tags(), null, v.confidence(), happened, null, null));
                memories.replace(m);
            }
        } catch (VersionConflict e) {
            return; // written meanwhile by a local client: that write is a local change, uploaded next
        }
        if (local.isPresent()
                && local.get().state() == MemoryState.ARCHIVED
                && local.get().content().isEmpty()) {
            // archived to the cold tier here: the team's value now sits in the stub, which stays archived (in place, as
            // a PATCH to archived leaves it) and restores from itself. The cold copy holds the text the team replaced,
            // possibly one it redacted, so it goes. Its context (the turn's neighbour) went with the stub already.
            try {
                indexer.dropStaleColdCopy(team, id);
            } catch (RuntimeException e) {
                LOG.log(Level.WARNING, "stale cold copy of synced memory " + id + " not dropped: " + e);
            }
        }
        try {
            indexer.index(List.of(m)); // recallable at once
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "indexing of synced memory " + id + " deferred: " + e);
        }
    }

    private void remove(Memory m) {
        try {
            memories.delete(m.team(), m.id(), m.version());
            indexer.remove(List.of(new VectorIndex.Key(m.team(), m.id(), m.version() + 1)));
        } catch (VersionConflict e) {
            // changed meanwhile: a local change, uploaded next
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index removal of synced memory " + m.id() + " deferred: " + e);
        }
    }

    // ---- upload

    /** A local change to send, with the team version it is based on. */
    private record Pending(SyncOp op, long base) {}

    /**
     * The local changes since the last sync: upserts of team memories that differ from their known value, deletes.
     * A parked fact is left out until its conflict is settled.
     */
    private List<Pending> pending(State state) {
        Map<Id, Pending> ops = new LinkedHashMap<>();
        Map<Id, Value> unseen = new HashMap<>(state.known());
        Id after = null;
        while (true) {
            List<Memory> page = memories.scan(state.team(), after, 500);
            for (Memory m : page) {
                if (m.scope() != Scope.TEAM || SyncedFacts.isProjection(m)) {
                    continue; // user memories stay private; projections belong to this server's own team log
                }
                Value known = unseen.remove(m.id());
                if (m.state() != MemoryState.ACTIVE) {
                    continue; // archived here by decay: a local choice, not a change of the team's fact
                }
                if (state.parked().containsKey(m.id()) || Value.of(m).equals(known)) {
                    continue; // parked: waits for its conflict to be settled, even when edited again meanwhile
                }
                ops.put(
                        m.id(),
                        new Pending(
                                new SyncOp(
                                        SyncOp.Kind.UPSERT, m.id(), 0, m.content(), m.type(), m.tags(), m.confidence()),
                                state.bases().getOrDefault(m.id(), state.pulled())));
            }
            if (page.size() < 500) {
                break;
            }
            after = page.get(page.size() - 1).id();
        }
        unseen.keySet().stream()
                .filter(id -> !state.parked().containsKey(id))
                .sorted()
                .forEach(id -> ops.put(
                        id,
                        new Pending(
                                new SyncOp(SyncOp.Kind.DELETE, id, 0, null, null, null, null),
                                state.bases().getOrDefault(id, state.pulled()))));
        return new ArrayList<>(ops.values());
    }

    /** A held base outlives its local change only while the fact is parked; a later edit is based on what it saw. */
    private State pruneBases(State state, List<Pending> pending) {
        Set<Id> keep = new java.util.HashSet<>(state.parked().keySet());
        pending.forEach(p -> keep.add(p.op().factId()));
        if (keep.containsAll(state.bases().keySet())) {
            return state;
        }
        Map<Id, Long> bases = new HashMap<>(state.bases());
        bases.keySet().retainAll(keep);
        State pruned = new State(state.team(), state.pulled(), state.known(), bases, state.parked());
        states.save(pruned);
        return pruned;
    }

    /**
     * Sends the changes based on the pulled version first, in batches; then each group of changes the team overtook,
     * with the base they were made on. For those the team's policy answers: last_writer_wins applies them (the
     * overwritten value kept as a conflict record), keep_both queues them (parked here until resolved), reject refuses
     * them (409: the team's value, committed first, stands and replaces the local one, which is logged).
     */
    private State upload(State state, List<Pending> pending, Counters n) {
        List<SyncOp> plain = new ArrayList<>();
        Map<Long, List<SyncOp>> overtaken = new java.util.TreeMap<>();
        for (Pending p : pending) {
            if (state.bases().containsKey(p.op().factId())) {
                overtaken.computeIfAbsent(p.base(), b -> new ArrayList<>()).add(p.op());
            } else {
                plain.add(p.op());
            }
        }
        for (int from = 0; from < plain.size(); from += settings.batchSize()) {
            List<SyncOp> batch = plain.subList(from, Math.min(plain.size(), from + settings.batchSize()));
            long base = state.pulled();
            state = applied(state, batch, base, remote.push(state.team(), draft(state, base, batch)), n);
        }
        for (Map.Entry<Long, List<SyncOp>> group : overtaken.entrySet()) {
            List<SyncOp> ops = group.getValue();
            for (int from = 0; from < ops.size(); from += settings.batchSize()) {
                List<SyncOp> batch = ops.subList(from, Math.min(ops.size(), from + settings.batchSize()));
                SyncService.Applied answer;
                try {
                    answer = remote.push(state.team(), draft(state, group.getKey(), batch));
                } catch (SyncConflict e) {
                    n.conflicts += e.conflicts().size();
                    state = refused(state, batch, group.getKey(), n);
                    continue;
                }
                state = applied(state, batch, group.getKey(), answer, n);
            }
        }
        return state;
    }

    private SyncService.SyncDraft draft(State state, long base, List<SyncOp> batch) {
        return new SyncService.SyncDraft(
                state.team().value(),
                settings.clientId().value(),
                base,
                null, // no key: a resend after a crash is recognised by (client, base, ops)
                batch.stream()
                        .map(op -> new SyncService.OpDraft(
                                op.kind() == SyncOp.Kind.UPSERT ? "upsert" : "delete",
                                op.factId().value(),
                                null,
                                op.content(),
                                op.type() == null ? null : op.type().wire(),
                                op.tags() == null
                                        ? null
                                        : op.tags().stream().map(Id::value).toList(),
                                op.confidence()))
                        .toList());
    }

    /** Records a batch the team took: known as sent, except the ops it queued as open conflicts, which are parked. */
    private State applied(State state, List<SyncOp> batch, long base, SyncService.Applied applied, Counters n) {
        Set<Id> queued =
                applied.queued().isEmpty() ? Set.of() : remote.openConflicts(state.team(), settings.clientId());
        Work w = new Work(state);
        for (SyncOp op : batch) {
            Value sent = op.kind() == SyncOp.Kind.DELETE
                    ? null
                    : new Value(op.content(), op.type(), op.tags(), op.confidence());
            // every op of a queued answer is parked: a resend of a delta queued before (its answer lost, or the same
            // delta from another laptop of this client id) may be answered with conflicts already resolved, and a
            // parked fact whose conflict is not open takes the team's value on the next pass
            if (applied.outcome() == SyncService.Outcome.QUEUED || queued.contains(op.factId())) {
                w.parked.put(op.factId(), new Parked(sent)); // known stays the team's value
                w.bases.putIfAbsent(op.factId(), base); // an edit made while it waits is weighed from here too
                continue;
            }
            if (sent == null) {
                w.known.remove(op.factId());
            } else {
                w.known.put(op.factId(), sent);
            }
            w.bases.remove(op.factId());
            w.parked.remove(op.factId());
        }
        n.uploaded += batch.size();
        n.conflicts += applied.queued().size();
        // applied right on top of what was pulled: nothing in between to pull
        if (applied.outcome() == SyncService.Outcome.APPLIED && applied.version() == state.pulled() + 1) {
            w.pulled = applied.version();
        }
        State next = w.state();
        states.save(next);
        return next;
    }

    /** The team refused these changes (reject policy): its value, committed first, replaces the local one here. */
    private State refused(State state, List<SyncOp> batch, long base, Counters n) {
        Work w = new Work(state);
        for (SyncOp op : batch) {
            Id id = op.factId();
            Optional<Memory> local = memories.get(w.team, id).filter(m -> m.scope() == Scope.TEAM);
            LOG.log(
                    Level.WARNING,
                    "team " + w.team + " refused the local " + (op.kind() == SyncOp.Kind.DELETE ? "delete" : "edit")
                            + " of fact " + id + " (the team changed it after version " + base
                            + "; its policy is reject): the team's value replaces it here"
                            + (op.content() == null ? "" : "; the refused content was: " + op.content()));
            w.bases.remove(id);
            w.parked.remove(id);
            adopt(w, id, local);
            n.refused++;
        }
        State next = w.state();
        states.save(next);
        return next;
    }
}
