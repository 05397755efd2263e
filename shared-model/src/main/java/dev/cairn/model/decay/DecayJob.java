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
import java.time.Instant;
import java.util.List;
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
            return new Progress(team, p.resumeAfter, scanned + p.scanned, decayed + p.decayed,
                    archived + p.archived, deleted + p.deleted);
        }
    }

    private final MemoryStore store;
    private final ColdStore cold;
    private final Indexer indexer;
    private final DecayPolicy policy;
    private final Clock clock;
    private final int pageSize;

    public DecayJob(MemoryStore store, ColdStore cold, Indexer indexer, DecayPolicy policy, Clock clock, int pageSize) {
        this.store = store;
        this.cold = cold;
        this.indexer = indexer;
        this.policy = policy;
        this.clock = clock;
        this.pageSize = pageSize;
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
            long decayed = 0;
            long archived = 0;
            long deleted = 0;
            for (Memory m : page) {
                if (m.state() == MemoryState.ACTIVE && policy.effectiveImportance(m, now) < m.importance()) {
                    decayed++;
                }
                Instant archivedAt = m.state() == MemoryState.ARCHIVED ? cold.storedAt(team, m.id()).orElse(null)
                        : null;
                switch (policy.verdict(m, now, archivedAt)) {
                    case ARCHIVE -> archived += archive(m) ? 1 : 0;
                    case DELETE -> deleted += delete(m) ? 1 : 0;
                    default -> {
                    }
                }
            }
            after = page.get(page.size() - 1).id();
            total = total.plus(new Progress(team, after, page.size(), decayed, archived, deleted));
            if (page.size() < pageSize) {
                return new Progress(team, null, total.scanned(), total.decayed(), total.archived(), total.deleted());
            }
            if (timeUp.getAsBoolean()) {
                return total;
            }
        }
    }

    /** Cold copy first: if the hot write then fails, the memory is still whole in the hot store. */
    private boolean archive(Memory m) {
        cold.put(m);
        Memory stub = new Memory(m.id(), m.team(), m.user(), m.scope(), m.type(), "", m.tags(), m.importance(),
                m.confidence(), m.occurredAt(), m.createdAt(), m.lastAccessedAt(), m.accessCount(),
                m.sourceSessionId(), m.evidence(), m.version() + 1, MemoryState.ARCHIVED, m.supersededBy(),
                m.validTo());
        try {
            store.replace(stub);
        } catch (VersionConflict e) {
            return false; // changed since the page was read: next run decides again
        }
        try {
            indexer.index(List.of(stub)); // an archived memory leaves the index
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index removal of archived memory " + m.id() + " deferred: " + e);
        }
        return true;
    }

    private boolean delete(Memory m) {
        try {
            store.delete(m.team(), m.id(), m.version());
        } catch (VersionConflict e) {
            return false;
        }
        cold.delete(m.team(), m.id());
        try {
            indexer.remove(List.of(new VectorIndex.Key(m.team(), m.id(), m.version() + 1)));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "index removal of expired memory " + m.id() + " deferred: " + e);
        }
        return true;
    }
}
