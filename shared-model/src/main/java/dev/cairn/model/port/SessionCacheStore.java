package dev.cairn.model.port;

import dev.cairn.model.cache.CachedResult;
import dev.cairn.model.cache.ContextPrefix;
import dev.cairn.model.cache.ContextSnapshot;
import dev.cairn.model.cache.HourlyUsage;
import dev.cairn.model.cache.UsageTotals;
import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The mid-term cache tier of a session in the record store: the tool cache's shared second level (so every function
 * instance sees the same entries), its counters, the usage ledger, and context snapshots. Counters are atomic
 * increments (DynamoDB {@code ADD}, SQLite {@code UPDATE … + ?}), so concurrent writers never lose a count.
 */
public interface SessionCacheStore {

    /** Stores (or replaces) an entry; results too large for one record go to the blob store. */
    void putEntry(CachedResult entry);

    Optional<CachedResult> entry(Id team, Id session, String key);

    /** Removes an entry; false when it was not there. */
    boolean deleteEntry(Id team, Id session, String key);

    /** Every entry of the session, expired ones included (the caller decides). */
    List<CachedResult> entries(Id team, Id session);

    /** Adds to the session's tool-cache counters and returns them; {@code bumpGeneration} marks an invalidation. */
    Counters addCounters(Id team, Id session, long hits, long misses, long evictions, boolean bumpGeneration);

    Counters counters(Id team, Id session);

    /** {@code generation} grows with every invalidation, so instances can tell their first level is out of date. */
    record Counters(long hits, long misses, long evictions, long generation) {
        public static final Counters ZERO = new Counters(0, 0, 0, 0);
    }

    /**
     * Adds one model response's usage to the session's totals for {@code model} and to that model's total for the
     * {@code hour} (an hour's start, UTC) it was recorded in.
     */
    void addUsage(Id team, Id session, String model, Instant hour, UsageTotals delta);

    /** The session's usage totals per model. */
    Map<String, UsageTotals> usage(Id team, Id session);

    /** The session's usage per model and hour, hours with usage only, oldest first (then by model). */
    List<HourlyUsage> hourlyUsage(Id team, Id session);

    /** The agent's stable inputs of the session's context: system prompt, tool definitions, model. */
    void putPrefix(Id team, Id session, ContextPrefix prefix);

    Optional<ContextPrefix> prefix(Id team, Id session);

    /**
     * Stores a context snapshot for {@code turn}: its blocks are content-addressed ({@code hash → text}, written once
     * per session), the snapshot item lists them, so restoring a turn reads one item plus one per block.
     */
    void putSnapshot(Id team, Id session, ContextSnapshot snapshot, Map<String, String> blocksByHash);

    Optional<ContextSnapshot> snapshot(Id team, Id session, long turn);

    Map<String, String> blocks(Id team, Id session, List<String> hashes);

    /**
     * Records that the snapshot of {@code turn} showed {@code memories}: the reverse lookup a delete needs to purge
     * the text of a deleted memory from every snapshot that embeds it ({@link #snapshotsShowing}).
     */
    void recordShown(Id team, Id session, long turn, Collection<Id> memories);

    /** The snapshots recorded as showing {@code memory}, in no particular order. */
    List<Shown> snapshotsShowing(Id team, Id memory);

    /** Drops the records of where {@code memory} was shown (after its snapshots were purged). */
    void forgetShown(Id team, Id memory);

    /** Deletes the session's blocks with these hashes (texts no snapshot references any more). */
    void deleteBlocks(Id team, Id session, Collection<String> hashes);

    /** One snapshot that showed a memory: its session and turn. */
    record Shown(Id session, long turn) {}
}
