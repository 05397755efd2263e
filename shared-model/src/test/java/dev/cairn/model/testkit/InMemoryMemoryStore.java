package dev.cairn.model.testkit;

import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.ListQuery;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.Page;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.MemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link MemoryStore} in a map, for tests of the domain services: every write conditional as in the real stores,
 * tombstones kept until the index has dropped them, one lock for all (so a test's concurrent writers race on the
 * version check, not on the map). Passes {@code MemoryStoreContract} like the SQLite and DynamoDB adapters.
 */
public final class InMemoryMemoryStore implements MemoryStore {

    private record Key(Id team, Id id) implements Comparable<Key> {
        @Override
        public int compareTo(Key o) {
            int byTeam = team.compareTo(o.team);
            return byTeam != 0 ? byTeam : id.compareTo(o.id);
        }
    }

    /** {@code memory} null: a tombstone at {@code version}, waiting for the index. */
    private record Row(Memory memory, long version, long indexedVersion) {
        boolean deleted() {
            return memory == null;
        }
    }

    private final TreeMap<Key, Row> rows = new TreeMap<>();
    private String decayCursor;

    @Override
    public synchronized void insertAll(List<Memory> memories) {
        Set<Key> batch = new HashSet<>();
        for (Memory m : memories) {
            Key k = new Key(m.team(), m.id());
            if (rows.containsKey(k) || !batch.add(k)) {
                throw new VersionConflict("a memory with one of these ids", 0, 1);
            }
        }
        for (Memory m : memories) {
            rows.put(new Key(m.team(), m.id()), new Row(m, m.version(), 0));
        }
    }

    @Override
    public synchronized Optional<Memory> get(Id team, Id id) {
        Row r = rows.get(new Key(team, id));
        return r == null || r.deleted() ? Optional.empty() : Optional.of(r.memory());
    }

    @Override
    public synchronized List<Memory> getAll(Id team, Collection<Id> ids) {
        return ids.stream()
                .distinct()
                .map(id -> get(team, id))
                .flatMap(Optional::stream)
                .toList();
    }

    @Override
    public synchronized void replace(Memory updated) {
        Key k = new Key(updated.team(), updated.id());
        Row r = live(k, updated.version() - 1);
        // as in the real stores, a content change leaves who owns it, when it was created and its reads alone:
        // access statistics are recorded on their own path and a replace must not lose a concurrent read
        Memory stored = Memories.from(updated)
                .accessed(r.memory().accessCount(), r.memory().lastAccessedAt())
                .createdAt(r.memory().createdAt())
                .build();
        rows.put(k, new Row(stored, updated.version(), r.indexedVersion()));
    }

    @Override
    public synchronized void delete(Id team, Id id, long expectedVersion) {
        Key k = new Key(team, id);
        Row r = live(k, expectedVersion);
        rows.put(k, new Row(null, r.version() + 1, r.indexedVersion()));
    }

    private Row live(Key k, long expected) {
        Row r = rows.get(k);
        if (r == null || r.deleted()) {
            throw new NotFound("memory " + k.id() + " in team " + k.team());
        }
        if (r.version() != expected) {
            throw new VersionConflict("memory " + k.id(), expected, r.version());
        }
        return r;
    }

    @Override
    public synchronized Page list(ListQuery q) {
        Comparator<Memory> order = Comparator.comparingDouble((Memory m) -> sortKey(q.order(), m))
                .thenComparing(Memory::id)
                .reversed();
        List<Memory> page = new ArrayList<>(liveOf(q.team()).stream()
                .filter(m -> q.scope() == Scope.USER
                        ? m.scope() == Scope.USER && q.viewer().equals(m.user())
                        : q.scope() == Scope.TEAM ? m.scope() == Scope.TEAM : m.visibleTo(q.viewer()))
                .filter(m -> q.type() == null || m.type() == q.type())
                .filter(m -> q.tag() == null || m.tags().contains(q.tag()))
                .filter(m -> q.after() == null || after(q, m))
                .sorted(order)
                .limit(q.limit() + 1L)
                .toList());
        ListQuery.Cursor next = null;
        if (page.size() > q.limit()) {
            page.subList(q.limit(), page.size()).clear();
            Memory last = page.get(page.size() - 1);
            next = new ListQuery.Cursor(sortKey(q.order(), last), last.id().value());
        }
        return new Page(List.copyOf(page), next);
    }

    private static boolean after(ListQuery q, Memory m) {
        double key = sortKey(q.order(), m);
        return key < q.after().sortKey()
                || (key == q.after().sortKey()
                        && m.id().value().compareTo(q.after().id()) < 0);
    }

    private static double sortKey(ListQuery.Order order, Memory m) {
        return order == ListQuery.Order.RECENCY ? m.createdAt().toEpochMilli() : m.importance();
    }

    @Override
    public synchronized List<Memory> scan(Id team, Id after, int limit) {
        return liveOf(team).stream()
                .filter(m -> after == null || m.id().compareTo(after) > 0)
                .limit(limit)
                .toList();
    }

    private List<Memory> liveOf(Id team) {
        return rows.entrySet().stream()
                .filter(e -> e.getKey().team().equals(team) && !e.getValue().deleted())
                .map(e -> e.getValue().memory())
                .toList();
    }

    @Override
    public synchronized List<Id> teams(Id after, int limit) {
        TreeSet<Id> teams = new TreeSet<>();
        rows.keySet().forEach(k -> teams.add(k.team()));
        return (after == null ? teams : teams.tailSet(after, false))
                .stream().limit(limit).toList();
    }

    @Override
    public synchronized Optional<String> decayCursor() {
        return Optional.ofNullable(decayCursor);
    }

    @Override
    public synchronized void saveDecayCursor(String cursor) {
        decayCursor = cursor;
    }

    @Override
    public synchronized void recordAccess(Id team, Collection<Id> ids, Instant at) {
        for (Id id : ids) {
            Key k = new Key(team, id);
            Row r = rows.get(k);
            if (r != null && !r.deleted()) {
                Memory m = r.memory();
                Instant last = m.lastAccessedAt() == null || at.isAfter(m.lastAccessedAt()) ? at : m.lastAccessedAt();
                rows.put(
                        k,
                        new Row(
                                Memories.from(m)
                                        .accessed(m.accessCount() + 1, last)
                                        .build(),
                                r.version(),
                                r.indexedVersion()));
            }
        }
    }

    @Override
    public synchronized List<IndexWork> pendingIndex(int limit) {
        return rows.entrySet().stream()
                .filter(e -> e.getValue().indexedVersion() < e.getValue().version())
                .limit(limit)
                .map(e -> work(e.getKey(), e.getValue()))
                .toList();
    }

    @Override
    public synchronized Optional<IndexWork> indexWork(Id team, Id id) {
        Key k = new Key(team, id);
        Row r = rows.get(k);
        return r == null || r.indexedVersion() >= r.version() ? Optional.empty() : Optional.of(work(k, r));
    }

    private static IndexWork work(Key k, Row r) {
        return new IndexWork(k.team(), k.id(), r.version(), r.memory());
    }

    @Override
    public synchronized void markIndexed(Id team, Id id, long version) {
        Key k = new Key(team, id);
        Row r = rows.get(k);
        if (r == null) {
            return;
        }
        if (r.deleted() && r.version() <= version) {
            rows.remove(k); // the index has dropped it: the tombstone has done its job
        } else if (r.indexedVersion() < version && r.version() >= version) {
            rows.put(k, new Row(r.memory(), r.version(), version));
        }
    }

    /** Live memories of the team (what the SQLite store's {@code count} answers). */
    public synchronized long count(Id team) {
        return liveOf(team).size();
    }
}
