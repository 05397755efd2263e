package dev.cairn.model.memory;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.List;

/** A validated change to a memory; {@code null} fields stay as they are. */
public record MemoryPatch(
        String content,
        MemoryType type,
        List<Id> tags,
        Double importance,
        Double confidence,
        Instant occurredAt,
        List<Id> evidence,
        MemoryState state) {

    public boolean isEmpty() {
        return content == null
                && type == null
                && tags == null
                && importance == null
                && confidence == null
                && occurredAt == null
                && evidence == null
                && state == null;
    }
}
