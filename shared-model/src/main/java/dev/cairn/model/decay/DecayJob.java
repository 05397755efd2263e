package dev.cairn.model.decay;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.function.BooleanSupplier;

/**
 * The scheduled decay job: walks one team's memories a page at a time (in id order, so it can resume from the last
 * id after a timeout) and applies {@link DecayPolicy}: archive (a full cold copy first, then the hot record becomes a
 * stub — state archived, content emptied — which takes it out of the index and of recall), delete expired archived
 * memories (hot stub, vectors and cold copy). Nothing it computes is written back as importance, so a second run on
 * the same day finds nothing new to do. Each change is a conditional write: a memory changed meanwhile is skipped
 * and looked at again next run.
 */
public final class DecayJob {

    private static final System.Logger LOG = System.getLogger(DecayJob.class.getName());

    /** Where a run stopped ({@code resumeAfter} null: the team is done) and what it did. */
    public record Progress(Id team, Id resumeAfter, long scanned, long decayed, long archived, long deleted) {
        Progress plus(Progress p) {
            return new Progress(
                    team,
                    p.resumeAfter,
                    scanned + p.scanned,
                    decayed + p.decayed,
                    archived + p.archived,
                    deleted + p.deleted);
        }
    }

    private final MemoryStore store;
    private final ColdStore cold;
    private final Indexer indexer;
    private final DecayPolicy policy;
    private final Clock clock;
    private final int pageSize;
    private final Executor executor;

    public DecayJob(MemoryStore store, ColdStore cold, Indexer indexer, DecayPolicy policy, Clock clock, int pageSize) {
        this(store, cold, indexer, policy, clock, pageSize, Runnable::run);
    }

    /**
     * @param executor runs the decisions of a page's memories (each a few store round trips) side by side; the
     *                 caller's thread when absent
     */
    public DecayJob(
            MemoryStore store,
            ColdStore cold,
            Indexer indexer,
            DecayPolicy policy,
            Clock clock,
            int pageSize,
            Executor executor) {
        this.executor = executor;
        this.store = store;
        this.cold = cold;
        this.indexer = indexer;
        this.policy = policy;
        this.clock = clock;
        this.pageSize = pageSize;
    }

    /**
     * Runs over the team from {@code resumeAfter} (null: the start) until the team is done or {@code budget} has passed
     * on the job's clock (checked between pages, so a run may go over by one page; the answer says where to resume).
     */
    public Progress run(Id team, Id resumeAfter, Duration budget) {
        Instant deadline = clock.instant().plus(budget);
        return run(team, resumeAfter, () -> clock.instant().isAfter(deadline));
    }

    /**
     * Runs over the team from {@code resumeAfter} (null: the start) until the team is done or {@code timeUp} says to
     * stop (checked between pages; a Lambda passes "less than a page's worth of time left").
     */
    public Progress run(Id team, Id resumeAfter, BooleanSupplier timeUp) {
        Instant now = clock.instant();
        Progress total = new Progress(team, resumeAfter, 0, 0, 0, 0);
        Id after = resumeAfter;
        while (true) {
            List<Memory> page = store.scan(team, after, pageSize);
            if (page.isEmpty()) {
                return total.plus(new Progress(team, null, 0, 0, 0, 0));
            }
            // each memory's decision and writes are independent: run them side by side (round trips dominate)
            List<CompletableFuture<Decision>> decisions = new ArrayList<>(page.size());
            for (Memory m : page) {
                decisions.add(CompletableFuture.supplyAsync(() -> decide(m, now), executor));
            }
            long decayed = 0;
            List<Memory> archived = new ArrayList<>();
            List<VectorIndex.Key> deleted = new ArrayList<>();
            for (CompletableFuture<Decision> f : decisions) {
                Decision d = join(f);
                decayed += d.decayed() ? 1 : 0;
                if (d.archivedStub() != null) {
                    archived.add(d.archivedStub());
                }
                if (d.deletedKey() != null) {
                    deleted.add(d.deletedKey());
                }
            }
            unindex(archived, deleted);
            after = page.get(page.size() - 1).id();
            total = total.plus(new Progress(team, after, page.size(), decayed, archived.size(), deleted.size()));
            if (page.size() < pageSize) {
                return new Progress(team, null, total.scanned(), total.decayed(), total.archived(), total.deleted());
            }
            if (timeUp.getAsBoolean()) {
                return total;
            }
        }
    }

    /** What happened to one memory of a page. */
    private record Decision(boolean decayed, Memory archivedStub, VectorIndex.Key deletedKey) {}

    private Decision decide(Memory m, Instant now) {
        boolean decayed = m.state() == MemoryState.ACTIVE && policy.effectiveImportance(m, now) < m.importance();
        // when it was archived is asked of the cold store (a HEAD in S3) only if it could already have expired
        Instant archivedAt =
                policy.mayExpire(m, now) ? cold.storedAt(m.team(), m.id()).orElse(null) : null;
        return switch (policy.verdict(m, now, archivedAt)) {
            case ARCHIVE -> new Decision(decayed, archive(m).orElse(null), null);
            case DELETE -> new Decision(decayed, null, delete(m).orElse(null));
            default -> new Decision(decayed, null, null);
        };
    }

    private static Decision join(CompletableFuture<Decision> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r; // the store's own error (StoreUnavailable → 503), not a wrapper
            }
            throw e;
        }
    }

    /** Cold copy first: if the hot write then fails, the memory is still whole in the hot store. */
    private Optional<Memory> archive(Memory m) {
        cold.put(m);
        Memory stub = m.archivedStub(); // the content and the context live only in the cold copy meanwhile
        try {
            store.replace(stub);
        } catch (VersionConflict e) {
            // changed (or deleted) since the page was read: next run decides again. The copy just written belongs to
            // no stub, and a delete's cascade may already have run, so it goes now (a memory still active has none).
            cold.delete(m.team(), m.id());
            return Optional.empty();
        }
        return Optional.of(stub);
    }

    private Optional<VectorIndex.Key> delete(Memory m) {
        try {
            store.delete(m.team(), m.id(), m.version());
        } catch (VersionConflict e) {
            return Optional.empty();
        }
        cold.delete(m.team(), m.id());
        return Optional.of(new VectorIndex.Key(m.team(), m.id(), m.version() + 1));
    }

    /**
     * A page's archived and deleted memories leave the index in one request each (not one per memory). If the index
     * is unreachable the store still says what is missing — archived stubs stay pending, tombstones stay unpurged — so
     * the background indexer finishes the job later.
     */
    private void unindex(List<Memory> archived, List<VectorIndex.Key> deleted) {
        try {
            indexer.index(archived);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index removal of " + archived.size() + " archived memories deferred: " + e);
        }
        try {
            indexer.remove(deleted);
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index removal of " + deleted.size() + " expired memories deferred: " + e);
        }
    }
}
