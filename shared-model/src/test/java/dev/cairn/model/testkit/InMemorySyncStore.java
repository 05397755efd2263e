package dev.cairn.model.testkit;

import dev.cairn.model.id.Id;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.ConflictRecord;
import dev.cairn.model.sync.FactState;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * {@link SyncStore} in maps, every call under one lock: a commit version is taken by its first write, an idempotency
 * key by its first claim, a fact replaced only by a later commit. Passes {@code SyncStoreContract} like the SQLite
 * and DynamoDB adapters.
 */
public final class InMemorySyncStore implements SyncStore {

    private final Map<Id, TreeMap<Long, Commit>> log = new HashMap<>();
    private final Map<Id, Long> materialized = new HashMap<>();
    private final Map<Id, Map<String, Long>> claims = new HashMap<>();
    private final Map<Id, TreeSet<Long>> voids = new HashMap<>();
    private final Map<Id, TreeMap<Id, FactState>> facts = new HashMap<>();
    private final Map<Id, TreeMap<Id, ConflictRecord>> conflicts = new HashMap<>();

    @Override
    public synchronized boolean appendCommit(Commit commit) {
        return log.computeIfAbsent(commit.team(), t -> new TreeMap<>()).putIfAbsent(commit.version(), commit) == null;
    }

    @Override
    public synchronized List<Commit> commits(Id team, long after, int limit) {
        return log.getOrDefault(team, new TreeMap<>()).tailMap(after, false).values().stream()
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized long lastCommit(Id team) {
        TreeMap<Long, Commit> of = log.get(team);
        return of == null || of.isEmpty() ? 0 : of.lastKey();
    }

    @Override
    public synchronized long materialized(Id team) {
        return materialized.getOrDefault(team, 0L);
    }

    @Override
    public synchronized void advanceMaterialized(Id team, long version) {
        materialized.merge(team, version, Math::max);
    }

    @Override
    public synchronized long claimIdempotency(Id team, String key, long version) {
        return claims.computeIfAbsent(team, t -> new HashMap<>()).computeIfAbsent(key, k -> version);
    }

    @Override
    public synchronized Optional<Long> idempotency(Id team, String key) {
        return Optional.ofNullable(claims.getOrDefault(team, Map.of()).get(key));
    }

    @Override
    public synchronized void markVoid(Id team, long version) {
        voids.computeIfAbsent(team, t -> new TreeSet<>()).add(version);
    }

    @Override
    public synchronized Set<Long> voids(Id team, long after, long upTo) {
        return after >= upTo
                ? Set.of()
                : Set.copyOf(voids.getOrDefault(team, new TreeSet<>()).subSet(after, false, upTo, true));
    }

    @Override
    public synchronized Map<Id, FactState> facts(Id team, Collection<Id> factIds) {
        TreeMap<Id, FactState> of = facts.getOrDefault(team, new TreeMap<>());
        Map<Id, FactState> out = new LinkedHashMap<>();
        factIds.stream().filter(of::containsKey).forEach(id -> out.put(id, of.get(id)));
        return out;
    }

    @Override
    public synchronized List<FactState> allFacts(Id team) {
        return List.copyOf(facts.getOrDefault(team, new TreeMap<>()).values());
    }

    @Override
    public synchronized void putFact(FactState state) {
        facts.computeIfAbsent(state.team(), t -> new TreeMap<>())
                .merge(state.factId(), state, (held, fresh) -> held.commit() < fresh.commit() ? fresh : held);
    }

    @Override
    public synchronized void resetMaterialized(Id team, List<FactState> replacement, long version) {
        TreeMap<Id, FactState> of = new TreeMap<>();
        replacement.forEach(f -> of.put(f.factId(), f));
        facts.put(team, of);
        materialized.put(team, version);
    }

    @Override
    public synchronized void putConflict(ConflictRecord conflict) {
        conflicts.computeIfAbsent(conflict.team(), t -> new TreeMap<>()).put(conflict.id(), conflict);
    }

    @Override
    public synchronized List<ConflictRecord> conflicts(Id team) {
        return List.copyOf(conflicts.getOrDefault(team, new TreeMap<>()).values());
    }

    @Override
    public synchronized Optional<ConflictRecord> conflict(Id team, Id id) {
        return Optional.ofNullable(conflicts.getOrDefault(team, new TreeMap<>()).get(id));
    }

    @Override
    public synchronized boolean updateConflict(ConflictRecord updated, String expectedStatus) {
        ConflictRecord held = conflict(updated.team(), updated.id()).orElse(null);
        if (held == null || !held.status().equals(expectedStatus)) {
            return false;
        }
        // as in the real stores, only the outcome changes: what was in conflict stays as recorded
        putConflict(new ConflictRecord(
                held.team(),
                held.id(),
                held.factId(),
                held.baseVersion(),
                held.currentVersion(),
                held.currentContent(),
                held.proposed(),
                held.clientId(),
                held.createdAt(),
                updated.status(),
                updated.resolution()));
        return true;
    }
}
