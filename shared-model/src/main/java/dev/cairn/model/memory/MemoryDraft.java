package dev.cairn.model.memory;

import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.id.Id;
import dev.cairn.model.validation.Checks;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * A memory as a client asks to create it: raw, untrusted values straight from the request. {@link #validate}
 * turns it into a {@link NewMemory} or reports every problem at once.
 */
public record MemoryDraft(
        String content,
        String type,
        String scope,
        List<String> tags,
        Double importance,
        Double confidence,
        String occurredAt,
        String sourceSessionId,
        List<String> evidence,
        String context) {

    /** A draft without a context (the memory is found by its content alone). */
    public MemoryDraft(
            String content,
            String type,
            String scope,
            List<String> tags,
            Double importance,
            Double confidence,
            String occurredAt,
            String sourceSessionId,
            List<String> evidence) {
        this(content, type, scope, tags, importance, confidence, occurredAt, sourceSessionId, evidence, null);
    }

    public NewMemory validate(MemoryLimits limits) {
        Checks c = new Checks();
        String text = content(c, "content", content, limits);
        MemoryType t = type == null ? MemoryType.FACT : c.oneOf("type", type, MemoryType::fromWire, MemoryType.ALLOWED);
        Scope s = scope == null ? Scope.USER : c.oneOf("scope", scope, Scope::fromWire, "user, team");
        List<Id> tagIds = c.ids("tags", tags, limits.maxTags());
        Double imp = c.unitInterval("importance", importance);
        Double conf = c.unitInterval("confidence", confidence);
        Instant occurred = c.instant("occurred_at", occurredAt);
        Id session = c.id("source_session_id", sourceSessionId, false);
        List<Id> evidenceIds = c.ids("evidence", evidence, limits.maxEvidence());
        String ctx = context(c, context, limits);
        c.throwIfAny();
        return new NewMemory(
                text,
                t,
                s,
                tagIds == null ? List.of() : tagIds,
                imp == null ? 0.5 : imp,
                conf == null ? 1.0 : conf,
                occurred,
                session,
                evidenceIds == null ? List.of() : evidenceIds,
                ctx);
    }

    /**
     * The optional context: absent, empty or only white space all mean none (a conversation turn nobody answered has
     * an empty reply, and refusing it would make a loader special-case it); otherwise the content's own limits.
     */
    static String context(Checks c, String raw, MemoryLimits limits) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        return content(c, "context", raw, limits);
    }

    /** Checks one content string; an over-long one is a 413, reported before any other field. */
    static String content(Checks c, String field, String raw, MemoryLimits limits) {
        if (raw == null) {
            c.fail(field, "is required");
            return null;
        }
        if (raw.isBlank()) {
            c.fail(field, "must not be empty or only white space");
            return null;
        }
        if (raw.indexOf('\u0000') >= 0) {
            c.fail(field, "contains a NUL character");
            return null;
        }
        int bytes = raw.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > limits.maxContentBytes()) {
            throw new ContentTooLarge(field, bytes, limits.maxContentBytes());
        }
        return raw;
    }
}
