package dev.cairn.model.session;

import dev.cairn.model.id.Id;
import java.time.Instant;

/**
 * The versioned head of a session buffer: the highest message number written, how far messages are folded into the
 * rolling summary, and the summary itself. Every change is a conditional write at {@code version}.
 */
public record SessionHead(
        Id team,
        Id session,
        long version,
        long lastSeq,
        long foldedThrough,
        String summary,
        long summaryVersion,
        boolean ended,
        Instant updatedAt) {

    public static SessionHead empty(Id team, Id session, Instant now) {
        return new SessionHead(team, session, 0, 0, 0, "", 0, false, now);
    }

    public long recentCount() {
        return lastSeq - foldedThrough;
    }
}
