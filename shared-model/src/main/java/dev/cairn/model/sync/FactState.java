package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import java.util.List;

/**
 * The materialized state of one team fact: derived from the commit log, rebuildable from it. {@code version} is the
 * team version of the commit that last changed it (the seed's logical clock; a delete is a change), so it always
 * equals {@code commit}, which the stores key their "newer wins" writes on; {@code memoryId} is the team memory it is
 * projected to (recall finds it there).
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
