package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import java.time.Instant;

/**
 * A conflict the team's policy kept: under last-writer-wins the overwritten value (status {@code overwritten}); under
 * keep-both the proposal that was not applied, waiting for someone to resolve it (status {@code open}, then
 * {@code resolved}).
 */
public record ConflictRecord(
        Id team,
        Id id,
        Id factId,
        long baseVersion,
        long currentVersion,
        String currentContent,
        SyncOp proposed,
        Id clientId,
        Instant createdAt,
        String status,
        String resolution) {}
