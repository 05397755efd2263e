package dev.cairn.model.session;

import dev.cairn.model.id.Id;
import java.time.Instant;

/**
 * The versioned head of a session buffer: the highest message number written, how far messages are folded into the
 * rolling summary, and the summary itself. Every change is a conditional write at {@code version}.
 *
 * <p>{@code owner} is the user who created the session: only they read or write it. A null owner is a team session,
 * open to every member of the team — an explicit choice at creation, and what heads written before sessions had
 * owners are read as (they were open to the team then).
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
        Instant updatedAt,
        Id owner) {

    /** A session not created yet, which {@code owner} (null: the team) would create. */
    public static SessionHead empty(Id team, Id session, Instant now, Id owner) {
        return new SessionHead(team, session, 0, 0, 0, "", 0, false, now, owner);
    }

    /**
     * The head a session is created with: version 1, as every stored head has at least (a head at version 0 is one
     * not stored yet, so the next write would try to create it again and never succeed).
     */
    public static SessionHead created(Id team, Id session, Instant now, Id owner) {
        return new SessionHead(team, session, 1, 0, 0, "", 0, false, now, owner);
    }

    /** Whether {@code user} may read and write this session: its owner, or anyone of the team for a team session. */
    public boolean openTo(Id user) {
        return owner == null || owner.equals(user);
    }

    public long recentCount() {
        return lastSeq - foldedThrough;
    }
}
