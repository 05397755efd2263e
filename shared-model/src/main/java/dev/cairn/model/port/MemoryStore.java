package dev.cairn.model.port;

import dev.cairn.model.error.CairnException;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.ListQuery;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.Page;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The record store: the source of truth for long-term memories.
 *
 * <p>Every change is a conditional write. {@link #insert} succeeds only when the id is new ({@code
 * attribute_not_exists}); {@link #replace} and {@link #delete} only when the stored version is the expected one
 * ({@code version = :expected}). A failed condition throws {@link dev.cairn.model.error.VersionConflict} and changes
 * nothing: a stale writer never overwrites a newer record.
 *
 * <p>Each record also carries the version it was last indexed at; records whose indexed version lags behind are the
 * index's to-do list ({@link #pendingIndex}), so a crash between the store write and the index write loses nothing.
 */
public interface MemoryStore {

    /**
     * Inserts new memories; throws VersionConflict (expected 0) if an id already exists. One memory is one conditional
     * write. Several are all or none only on a store with multi-item transactions (SQLite); DynamoDB writes each on
     * its own, so a failure may leave others written: a caller that writes several and must say what happened to each
     * uses {@link #insertEach}.
     */
    void insertAll(List<Memory> memories);

    /**
     * Writes each new memory as its own conditional write and answers, truthfully, which were not written: the
     * failures by memory id (a {@link dev.cairn.model.error.VersionConflict} for an id that exists, a
     * {@link dev.cairn.model.error.StoreUnavailable} for a write the store did not take); a memory absent from the
     * answer is stored. Never undoes a written item. This default suits a store whose {@link #insertAll} is atomic: it
     * tries the whole list at once (nothing is written when it fails), then each memory on its own so each gets its
     * own answer.
     */
    default Map<Id, CairnException> insertEach(List<Memory> memories) {
        try {
            insertAll(memories);
            return Map.of();
        } catch (CairnException whole) {
            Map<Id, CairnException> failed = new LinkedHashMap<>();
            for (Memory m : memories) {
                try {
                    insertAll(List.of(m));
                } catch (CairnException e) {
                    failed.put(m.id(), e);
                }
            }
            return failed;
        }
    }

    Optional<Memory> get(Id team, Id id);

    /** The live memories among {@code ids} (deleted ones are absent), in no particular order. */
    List<Memory> getAll(Id team, Collection<Id> ids);

    /** Replaces a memory whose stored version is {@code updated.version() - 1}. */
    void replace(Memory updated);

    /**
     * Deletes a memory at {@code expectedVersion}. The record becomes invisible at once; a tombstone stays until the
     * index has dropped it, then it is purged.
     */
    void delete(Id team, Id id, long expectedVersion);

    Page list(ListQuery query);

    /**
     * Every live memory of the team, whoever owns it, in id order after {@code after} (null: from the start), at most
     * {@code limit}: the decay job's walk, resumable from the last id it saw.
     */
    List<Memory> scan(Id team, Id after, int limit);

    /**
     * Teams that hold memories (or did: a team whose memories were all deleted may stay listed), in id order after
     * {@code after} (null: from the start), at most {@code limit}: what the scheduled decay run walks.
     */
    List<Id> teams(Id after, int limit);

    /** Where the scheduled decay run stopped (opaque to the store), or empty when no pass is under way. */
    Optional<String> decayCursor();

    /** Records where the scheduled decay run stopped; null clears it (a pass finished). */
    void saveDecayCursor(String cursor);

    /** Adds one access to each memory; does not change versions (reads must not break optimistic locking). */
    void recordAccess(Id team, Collection<Id> ids, Instant at);

    /** Up to {@code limit} records whose index entry is missing or older than the record, tombstones included. */
    List<IndexWork> pendingIndex(int limit);

    /**
     * The index work for one memory if its index entry lags behind the record (tombstones included), read with strong
     * consistency: a change notification (a DynamoDB Streams record) names the memory, the store says what to do.
     */
    Optional<IndexWork> indexWork(Id team, Id id);

    /** Records that the index now holds {@code version} of the memory (or has dropped its tombstone). */
    void markIndexed(Id team, Id id, long version);

    /**
     * {@link #markIndexed} for many memories; a store that can write them together (one transaction) overrides it, so
     * indexing a batch does not pay one durable write per memory.
     */
    default void markIndexed(List<VectorIndex.Key> indexed) {
        for (VectorIndex.Key k : indexed) {
            markIndexed(k.team(), k.id(), k.version());
        }
    }

    /** A record to (re)index, or a tombstone ({@code memory} null) to remove from the index. */
    record IndexWork(Id team, Id id, long version, Memory memory) {
        public boolean isDelete() {
            return memory == null;
        }
    }
}
