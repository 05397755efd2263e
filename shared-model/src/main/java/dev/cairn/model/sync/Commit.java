package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.List;

/**
 * One accepted delta: the single linearization point of a team's shared memory, keyed (team, version) and written
 * only if that version is free. {@code idempotencyKey} makes a retried request find its first answer; a commit whose
 * key already belongs to an earlier commit (two copies of one request racing) is void: it changes nothing.
 */
public record Commit(
        Id team,
        long version,
        Id clientId,
        String idempotencyKey,
        Id committer,
        Instant committedAt,
        List<SyncOp> ops) {

    public Commit {
        ops = List.copyOf(ops);
    }
}
