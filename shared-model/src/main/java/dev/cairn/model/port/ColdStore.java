package dev.cairn.model.port;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import java.util.List;
import java.util.Optional;

/**
 * The cold tier: full copies of memories archived out of the hot store (decay) and kept for restore and audit.
 *
 * <p>Invariants: object names are built only from validated {@link Id}s, so no input can address another team's
 * objects or escape the store's root; {@link #put} replaces the copy of the same memory; {@link #delete} is
 * idempotent (deleting what is not there succeeds).
 */
public interface ColdStore {

    void put(Memory memory);

    Optional<Memory> get(Id team, Id id);

    /** Ids of the team's cold copies, in id order, at most {@code limit}. */
    List<Id> list(Id team, int limit);

    void delete(Id team, Id id);

    /** When the cold copy was written (the memory's archival), empty when there is none. */
    Optional<java.time.Instant> storedAt(Id team, Id id);
}
