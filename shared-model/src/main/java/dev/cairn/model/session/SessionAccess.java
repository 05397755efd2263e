package dev.cairn.model.session;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.port.SessionStore;
import java.time.Clock;
import java.util.Optional;

/**
 * Who may use a session: the user who created it, or — for a session created as a team session — every member of its
 * team. Every session route (messages, read, context, prefix, usage, tool cache, end) asks here first.
 *
 * <p>A session is created by the first write of any kind (a message, a context prefix, a tool-cache entry, a usage
 * record, an assembled context, an end) and then belongs to that caller; {@link #create} makes a team session
 * instead, which has to be the first thing done with the id. Another user's session answers 404 on every route, as
 * another user's memory does: the caller learns nothing about it, not even that it exists.
 */
public final class SessionAccess {

    /** Who a new session is open to. */
    public enum Visibility {
        USER,
        TEAM;

        public static Visibility fromWire(String s) {
            return switch (s) {
                case "user" -> USER;
                case "team" -> TEAM;
                default -> null;
            };
        }

        public String wire() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** What {@link #create} did: created the session, or found it already created the same way by the caller. */
    public record Created(SessionHead head, boolean created) {}

    private final SessionStore store;
    private final Clock clock;

    public SessionAccess(SessionStore store, Clock clock) {
        this.store = store;
        this.clock = clock;
    }

    /**
     * The session's head for a read, or empty when nobody has written to it yet (there is nothing to show).
     *
     * @throws NotFound when the session belongs to another user
     */
    public Optional<SessionHead> readable(Caller caller, Id team, Id session) {
        caller.requireMember(team);
        Optional<SessionHead> head = store.head(team, session);
        if (head.isPresent() && !head.get().openTo(caller.user())) {
            throw notFound(session);
        }
        return head;
    }

    /**
     * The session's head for a write, created as the caller's own session when it does not exist yet.
     *
     * @throws NotFound when the session belongs to another user
     */
    public SessionHead writable(Caller caller, Id team, Id session) {
        caller.requireMember(team);
        while (true) {
            Optional<SessionHead> head = store.head(team, session);
            if (head.isPresent()) {
                if (!head.get().openTo(caller.user())) {
                    throw notFound(session);
                }
                return head.get();
            }
            SessionHead fresh = SessionHead.created(team, session, clock.instant(), caller.user());
            try {
                store.putHead(fresh, 0);
                return fresh;
            } catch (VersionConflict e) {
                // another request created it first: read whose it is
            }
        }
    }

    /**
     * Creates the session explicitly, as the caller's own ({@link Visibility#USER}) or as a team session. Creating it
     * again the same way is a no-op; a session that already exists otherwise (used before, or the other visibility)
     * is refused, because visibility is fixed at creation.
     */
    public Created create(Caller caller, Id team, Id session, String visibility) {
        caller.requireMember(team);
        Visibility v = visibility == null ? Visibility.USER : Visibility.fromWire(visibility);
        if (v == null) {
            throw new InvalidInput("visibility", "must be user or team");
        }
        Id owner = v == Visibility.TEAM ? null : caller.user();
        Optional<SessionHead> existing = store.head(team, session);
        if (existing.isEmpty()) {
            SessionHead fresh = SessionHead.created(team, session, clock.instant(), owner);
            try {
                store.putHead(fresh, 0);
                return new Created(fresh, true);
            } catch (VersionConflict e) {
                existing = store.head(team, session);
            }
        }
        SessionHead h = existing.orElseThrow();
        if (!h.openTo(caller.user())) {
            throw notFound(session);
        }
        if (java.util.Objects.equals(h.owner(), owner)) {
            return new Created(h, false);
        }
        throw new SessionExists(session.value(), h.owner() == null ? Visibility.TEAM : Visibility.USER);
    }

    private static NotFound notFound(Id session) {
        return new NotFound("session '" + session.value() + "'");
    }
}
