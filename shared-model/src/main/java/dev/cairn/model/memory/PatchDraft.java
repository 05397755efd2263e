package dev.cairn.model.memory;

import dev.cairn.model.id.Id;
import dev.cairn.model.validation.Checks;
import java.time.Instant;
import java.util.List;

/** Raw fields a client asks to change; {@code null} means "leave as is". */
public record PatchDraft(
        String content,
        String type,
        List<String> tags,
        Double importance,
        Double confidence,
        String occurredAt,
        List<String> evidence,
        String state) {

    public MemoryPatch validate(MemoryLimits limits) {
        Checks c = new Checks();
        String text = content == null ? null : MemoryDraft.content(c, "content", content, limits);
        MemoryType t = c.oneOf("type", type, MemoryType::fromWire, MemoryType.ALLOWED);
        List<Id> tagIds = c.ids("tags", tags, limits.maxTags());
        Double imp = c.unitInterval("importance", importance);
        Double conf = c.unitInterval("confidence", confidence);
        Instant occurred = c.instant("occurred_at", occurredAt);
        List<Id> evidenceIds = c.ids("evidence", evidence, limits.maxEvidence());
        MemoryState s = c.oneOf("state", state, MemoryState::fromWire, "active, archived");
        c.throwIfAny();
        MemoryPatch patch = new MemoryPatch(text, t, tagIds, imp, conf, occurred, evidenceIds, s);
        if (patch.isEmpty()) {
            c.fail(
                    "body",
                    "names no field to change (content, type, tags, importance, confidence, occurred_at, "
                            + "evidence, state)");
            c.throwIfAny();
        }
        return patch;
    }
}
