package dev.cairn.model.decay;

import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import java.time.Duration;
import java.time.Instant;

/**
 * How long-term memory fades (the decay job's decisions).
 *
 * <p>Effective importance = base importance × {@code decay}^(days since last access ÷ max(access count, 1)). It is
 * computed from stored values every time — never by multiplying a stored value again — so running the job twice on
 * the same day changes nothing, and a memory that is recalled often fades more slowly (its access count stretches
 * the time). Below {@code archiveBelow} an active memory is archived (cold copy, out of the index, a stub stays);
 * an archived memory is deleted with its cold copy once it has been archived for {@code expireAfter}.
 *
 * @param decay        factor per effective day, in (0, 1]
 * @param archiveBelow effective importance under which an active memory is archived
 * @param expireAfter  time after its archival at which an archived memory is deleted
 */
public record DecayPolicy(double decay, double archiveBelow, Duration expireAfter) {

    public enum Verdict {
        KEEP,
        ARCHIVE,
        DELETE
    }

    public DecayPolicy {
        if (!(decay > 0 && decay <= 1) || !(archiveBelow >= 0 && archiveBelow <= 1) || expireAfter.isNegative()) {
            throw new IllegalArgumentException("decay in (0, 1], archiveBelow in [0, 1], expireAfter ≥ 0");
        }
    }

    public static DecayPolicy defaults() {
        return new DecayPolicy(0.98, 0.05, Duration.ofDays(365));
    }

    /** When the memory was last used: its last access, else when it was stored. */
    public static Instant lastUse(Memory m) {
        return m.lastAccessedAt() != null ? m.lastAccessedAt() : m.createdAt();
    }

    public double effectiveImportance(Memory m, Instant now) {
        double days = Math.max(0, Duration.between(lastUse(m), now).toMillis() / 86_400_000.0);
        return m.importance() * Math.pow(decay, days / Math.max(m.accessCount(), 1));
    }

    /**
     * Whether an archived memory could be due for deletion at all: it was archived after its last use, so if even its
     * last use is within {@code expireAfter}, its archival is too — no need to ask when it was archived.
     */
    public boolean mayExpire(Memory m, Instant now) {
        return m.state() == MemoryState.ARCHIVED
                && Duration.between(lastUse(m), now).compareTo(expireAfter) > 0;
    }

    /** {@code archivedAt}: when an archived memory went cold (ignored for active ones). */
    public Verdict verdict(Memory m, Instant now, Instant archivedAt) {
        if (m.state() == MemoryState.ARCHIVED) {
            Instant since = archivedAt != null ? archivedAt : lastUse(m);
            return Duration.between(since, now).compareTo(expireAfter) > 0 ? Verdict.DELETE : Verdict.KEEP;
        }
        return effectiveImportance(m, now) < archiveBelow ? Verdict.ARCHIVE : Verdict.KEEP;
    }
}
