package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import java.util.List;

/**
 * One operation of a commit, as the log keeps it: the fact went from {@code fromVersion} to {@code fromVersion + 1}.
 * For a delete, content, type, tags and confidence are null.
 */
public record SyncOp(
        Kind kind, Id factId, long fromVersion, String content, MemoryType type, List<Id> tags, Double confidence) {

    public enum Kind {
        UPSERT,
        DELETE
    }

    public SyncOp {
        tags = tags == null ? null : List.copyOf(tags);
    }

    public long toVersion() {
        return fromVersion + 1;
    }
}
