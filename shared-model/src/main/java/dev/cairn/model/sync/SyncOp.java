package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import java.util.List;

/**
 * One operation of a delta. {@code version} is the version the fact gets (the seed's logical clock): in the log, the
 * team version of the commit that holds the op; in a proposal (a conflict), the client's {@code base_version + 1}.
 * For a delete, content, type, tags and confidence are null.
 */
public record SyncOp(
        Kind kind, Id factId, long version, String content, MemoryType type, List<Id> tags, Double confidence) {

    public enum Kind {
        UPSERT,
        DELETE
    }

    public SyncOp {
        tags = tags == null ? null : List.copyOf(tags);
    }

    public SyncOp at(long newVersion) {
        return new SyncOp(kind, factId, newVersion, content, type, tags, confidence);
    }
}
