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
 * yet uploaded keeps the local value, which is uploaded next: the later writer wins, and the team's log keeps both);
 * then upload the local changes in batches, each one delta based on the pulled version. A 409 means the team changed
 * some of those facts: pull, merge, and send again. Under keep_both the team queues the conflicting ops; the replica
 * counts them handed over and takes the team's resolution when it arrives.
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

    /** {@code pulled}: the remote team version merged up to; {@code known}: each fact's value as last synced. */
    public record State(Id team, long pulled, Map<Id, Value> known) {
        public State {
            known = Map.copyOf(known);
        }

        public static State empty(Id team) {
            return new State(team, 0, Map.of());
        }
    }

    /** What one pass did. */
    public record Report(Id team, int pulledCommits, int merged, int uploaded, int conflicts, long version) {}

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
        State state = pull(states.load(team), n);
        for (int attempt = 0; ; attempt++) {
            List<SyncOp> pending = pending(state);
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
        return new Report(team, n.commits, n.merged, n.uploaded, n.conflicts, state.pulled());
    }

    private static final class Counters {
        int commits;
        int merged;
        int uploaded;
        int conflicts;
    }

    // ---- pull and merge

    private State pull(State state, Counters n) {
        long since = state.pulled();
        Map<Id, Value> known = new HashMap<>(state.known());
        while (true) {
            SyncService.Changes page = remote.pull(state.team(), since, settings.pageSize());
            for (Commit c : page.changes()) {
                for (SyncOp op : c.ops()) {
                    if (merge(state.team(), op, known, c.committedAt())) {
                        n.merged++;
                    }
                }
                since = c.version();
                n.commits++;
            }
            if (!page.changes().isEmpty()) {
                state = new State(state.team(), since, known);
                states.save(state); // after the page's local writes: a crash re-merges it, which writes nothing new
            }
            if (page.nextSince() == null) {
                return state;
            }
        }
    }

    /** Merges one remote op into local memory; true when a local memory changed. */
    private boolean merge(Id team, SyncOp op, Map<Id, Value> known, Instant committedAt) {
        Optional<Memory> local = memories.get(team, op.factId()).filter(m -> m.scope() == Scope.TEAM);
        Value before = known.get(op.factId());
        boolean localChange = local.isPresent()
                ? !Value.of(local.get()).equals(before)
                : before != null; // known but gone here: deleted locally, not uploaded yet
        if (op.kind() == SyncOp.Kind.DELETE) {
            known.remove(op.factId());
            if (localChange || local.isEmpty()) {
                return false; // the local edit survives the remote delete and is uploaded next
            }
            remove(local.get());
            return true;
        }
        String content;
        try {
            content = secrets.screen(team, "content", op.content()).text();
        } catch (SecretRejected e) {
            LOG.log(Level.WARNING, "team fact " + op.factId() + " not merged: " + e.getMessage());
            return false;
        }
        Value remote = new Value(
                content,
                op.type() != null ? op.type() : local.map(Memory::type).orElse(MemoryType.FACT),
                op.tags() != null ? op.tags() : local.map(Memory::tags).orElse(List.of()),
                op.confidence() != null
                        ? op.confidence()
                        : local.map(Memory::confidence).orElse(1.0));
        known.put(op.factId(), remote);
        if (localChange || (local.isPresent() && Value.of(local.get()).equals(remote))) {
            return false;
        }
        write(team, op.factId(), local, remote, committedAt);
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

    /** The local changes since the last sync: upserts of team memories that differ from their known value, deletes. */
    private List<SyncOp> pending(State state) {
        Map<Id, SyncOp> ops = new LinkedHashMap<>();
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
                if (!Value.of(m).equals(known)) {
                    ops.put(
                            m.id(),
                            new SyncOp(SyncOp.Kind.UPSERT, m.id(), 0, m.content(), m.type(), m.tags(), m.confidence()));
                }
            }
            if (page.size() < 500) {
                break;
            }
            after = page.get(page.size() - 1).id();
        }
        unseen.keySet().stream()
                .sorted()
                .forEach(id -> ops.put(id, new SyncOp(SyncOp.Kind.DELETE, id, 0, null, null, null, null)));
        return new ArrayList<>(ops.values());
    }

    private State upload(State state, List<SyncOp> pending, Counters n) {
        for (int from = 0; from < pending.size(); from += settings.batchSize()) {
            List<SyncOp> batch = pending.subList(from, Math.min(pending.size(), from + settings.batchSize()));
            SyncService.SyncDraft delta = new SyncService.SyncDraft(
                    state.team().value(),
                    settings.clientId().value(),
                    state.pulled(),
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
            SyncService.Applied applied = remote.push(state.team(), delta);
            Map<Id, Value> known = new HashMap<>(state.known());
            for (SyncOp op : batch) {
                if (op.kind() == SyncOp.Kind.DELETE) {
                    known.remove(op.factId());
                } else {
                    known.put(op.factId(), new Value(op.content(), op.type(), op.tags(), op.confidence()));
                }
            }
            n.uploaded += batch.size();
            n.conflicts += applied.queued().size();
            // applied right on top of what was pulled: nothing in between to pull
            long pulled = applied.outcome() == SyncService.Outcome.APPLIED && applied.version() == state.pulled() + 1
                    ? applied.version()
                    : state.pulled();
            state = new State(state.team(), pulled, known);
            states.save(state);
        }
        return state;
    }
}
