package dev.cairn.model.port;

import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionHead;
import dev.cairn.model.session.SessionMessage;
import java.util.List;
import java.util.Optional;

/**
 * Session buffers: one head per session plus its messages, each message its own record keyed by its number.
 *
 * <p>A message number is taken by writing the message ({@link #putMessage} succeeds only if the number is free), so
 * two writers never share one and a number exists only if its message does. The head changes only by
 * {@link #putHead} at an expected version. No multi-item transaction is needed (the local DynamoDB stand-in has none).
 */
public interface SessionStore {

    Optional<SessionHead> head(Id team, Id session);

    /** Writes {@code message} at its {@code seq} if no message holds that number yet; false if one does. */
    boolean putMessage(Id team, Id session, SessionMessage message);

    /** Messages numbered {@code from..to} (inclusive), in order. */
    List<SessionMessage> messages(Id team, Id session, long from, long to);

    /**
     * Creates the head ({@code expectedVersion} 0) or replaces it at {@code expectedVersion}.
     *
     * @throws dev.cairn.model.error.VersionConflict when another writer changed it first
     */
    void putHead(SessionHead head, long expectedVersion);
}
