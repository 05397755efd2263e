package dev.cairn.model.memory;

import dev.cairn.model.id.Id;

/**
 * What else holds a copy of a memory's text and must drop it when the memory is deleted, beyond the record, its index
 * documents and its cold copy (which the indexer removes): context snapshots ({@code SnapshotPurge}).
 */
@FunctionalInterface
public interface DeleteCascade {

    /** The memory is deleted: remove every copy of its text this holds. Idempotent. */
    void deleted(Id team, Id memory);

    DeleteCascade NONE = (team, memory) -> {};
}
