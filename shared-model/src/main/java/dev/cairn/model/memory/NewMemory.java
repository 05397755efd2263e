package dev.cairn.model.memory;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.List;

/** A validated request to create a memory (see {@link MemoryDraft#validate}). */
public record NewMemory(
        String content,
        MemoryType type,
        Scope scope,
        List<Id> tags,
        double importance,
        double confidence,
        Instant occurredAt,
        Id sourceSessionId,
        List<Id> evidence,
        String context) {}
