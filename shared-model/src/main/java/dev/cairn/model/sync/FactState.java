package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import java.util.List;

/**
 * The materialized state of one team fact: derived from the commit log, rebuildable from it. {@code version} counts
 * the fact's changes (a delete is a change; a later upsert continues the count); {@code commit} is the log version
 * that last changed it; {@code memoryId} the team memory it is projected to (recall finds it there).
 */
public record FactState(
        Id team,
        Id factId,
        long version,
        boolean deleted,
        String content,
        MemoryType type,
        List<Id> tags,
        double confidence,
        long commit,
        Id memoryId) {

    public FactState {
        tags = List.copyOf(tags);
    }
}
