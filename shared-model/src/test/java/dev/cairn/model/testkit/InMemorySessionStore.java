package dev.cairn.model.testkit;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.session.SessionHead;
import dev.cairn.model.session.SessionMessage;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link SessionStore} in maps: a message number is taken by the first write of it, the head changes only at its
 * expected version. Passes {@code SessionStoreContract} like the SQLite and DynamoDB adapters.
 */
public final class InMemorySessionStore implements SessionStore {

    private record Key(Id team, Id session) {}

    private final Map<Key, SessionHead> heads = new HashMap<>();
    private final Map<Key, TreeMap<Long, SessionMessage>> messages = new HashMap<>();

    @Override
    public synchronized Optional<SessionHead> head(Id team, Id session) {
        return Optional.ofNullable(heads.get(new Key(team, session)));
    }

    @Override
    public synchronized boolean putMessage(Id team, Id session, SessionMessage message) {
        return messages.computeIfAbsent(new Key(team, session), k -> new TreeMap<>())
                        .putIfAbsent(message.seq(), message)
                == null;
    }

    @Override
    public synchronized List<SessionMessage> messages(Id team, Id session, long from, long to) {
        TreeMap<Long, SessionMessage> all = messages.get(new Key(team, session));
        return all == null || from > to
                ? List.of()
                : List.copyOf(all.subMap(from, true, to, true).values());
    }

    @Override
    public synchronized void putHead(SessionHead head, long expectedVersion) {
        Key k = new Key(head.team(), head.session());
        SessionHead held = heads.get(k);
        long actual = held == null ? 0 : held.version();
        // expected version 0 creates the head, as SQLite's INSERT and DynamoDB's attribute_not_exists do: it never
        // replaces one, whatever version the stored head has
        if (actual != expectedVersion || expectedVersion == 0 && held != null) {
            throw new VersionConflict("session " + head.session(), expectedVersion, actual);
        }
        heads.put(k, head);
    }
}
