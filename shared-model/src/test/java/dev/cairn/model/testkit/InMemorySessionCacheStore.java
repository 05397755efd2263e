package dev.cairn.model.testkit;

import dev.cairn.model.cache.CachedResult;
import dev.cairn.model.cache.ContextPrefix;
import dev.cairn.model.cache.ContextSnapshot;
import dev.cairn.model.cache.HourlyUsage;
import dev.cairn.model.cache.UsageTotals;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.SessionCacheStore;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link SessionCacheStore} in maps, every call under one lock (so counters and usage add up as the real stores'
 * atomic increments do). Passes {@code SessionCacheStoreContract} like the SQLite and DynamoDB adapters.
 */
public final class InMemorySessionCacheStore implements SessionCacheStore {

    private record Key(Id team, Id session) {}

    private final Map<Key, TreeMap<String, CachedResult>> entries = new HashMap<>();
    private final Map<Key, Counters> counters = new HashMap<>();
    private final Map<Key, Map<String, UsageTotals>> usage = new HashMap<>();
    private final Map<Key, TreeMap<String, HourlyUsage>> hourly = new HashMap<>();
    private final Map<Key, ContextPrefix> prefixes = new HashMap<>();
    private final Map<Key, Map<Long, ContextSnapshot>> snapshots = new HashMap<>();
    private final Map<Key, Map<String, String>> blocks = new HashMap<>();

    @Override
    public synchronized void putEntry(CachedResult entry) {
        entries.computeIfAbsent(new Key(entry.team(), entry.session()), k -> new TreeMap<>())
                .put(entry.key(), entry);
    }

    @Override
    public synchronized Optional<CachedResult> entry(Id team, Id session, String key) {
        return Optional.ofNullable(
                entries.getOrDefault(new Key(team, session), new TreeMap<>()).get(key));
    }

    @Override
    public synchronized boolean deleteEntry(Id team, Id session, String key) {
        TreeMap<String, CachedResult> of = entries.get(new Key(team, session));
        return of != null && of.remove(key) != null;
    }

    @Override
    public synchronized List<CachedResult> entries(Id team, Id session) {
        return List.copyOf(
                entries.getOrDefault(new Key(team, session), new TreeMap<>()).values());
    }

    @Override
    public synchronized Counters addCounters(
            Id team, Id session, long hits, long misses, long evictions, boolean bumpGeneration) {
        Counters c = counters(team, session);
        Counters next = new Counters(
                c.hits() + hits,
                c.misses() + misses,
                c.evictions() + evictions,
                c.generation() + (bumpGeneration ? 1 : 0));
        counters.put(new Key(team, session), next);
        return next;
    }

    @Override
    public synchronized Counters counters(Id team, Id session) {
        return counters.getOrDefault(new Key(team, session), Counters.ZERO);
    }

    @Override
    public synchronized void addUsage(Id team, Id session, String model, Instant hour, UsageTotals delta) {
        usage.computeIfAbsent(new Key(team, session), k -> new TreeMap<>()).merge(model, delta, UsageTotals::plus);
        hourly.computeIfAbsent(new Key(team, session), k -> new TreeMap<>())
                .merge(
                        hour + " " + model,
                        new HourlyUsage(hour, model, delta),
                        (a, b) -> new HourlyUsage(hour, model, a.totals().plus(b.totals())));
    }

    @Override
    public synchronized List<HourlyUsage> hourlyUsage(Id team, Id session) {
        return List.copyOf(
                hourly.getOrDefault(new Key(team, session), new TreeMap<>()).values());
    }

    @Override
    public synchronized Map<String, UsageTotals> usage(Id team, Id session) {
        return Map.copyOf(usage.getOrDefault(new Key(team, session), Map.of()));
    }

    @Override
    public synchronized void putPrefix(Id team, Id session, ContextPrefix prefix) {
        prefixes.put(new Key(team, session), prefix);
    }

    @Override
    public synchronized Optional<ContextPrefix> prefix(Id team, Id session) {
        return Optional.ofNullable(prefixes.get(new Key(team, session)));
    }

    @Override
    public synchronized void putSnapshot(
            Id team, Id session, ContextSnapshot snapshot, Map<String, String> blocksByHash) {
        Key k = new Key(team, session);
        Map<String, String> held = blocks.computeIfAbsent(k, x -> new HashMap<>());
        blocksByHash.forEach(held::putIfAbsent); // content-addressed: a hash names one text, written once
        snapshots.computeIfAbsent(k, x -> new HashMap<>()).put(snapshot.turn(), snapshot);
    }

    @Override
    public synchronized Optional<ContextSnapshot> snapshot(Id team, Id session, long turn) {
        return Optional.ofNullable(
                snapshots.getOrDefault(new Key(team, session), Map.of()).get(turn));
    }

    @Override
    public synchronized Map<String, String> blocks(Id team, Id session, List<String> hashes) {
        Map<String, String> held = blocks.getOrDefault(new Key(team, session), Map.of());
        Map<String, String> out = new LinkedHashMap<>();
        hashes.stream().filter(held::containsKey).forEach(h -> out.put(h, held.get(h)));
        return out;
    }

    private final Map<String, java.util.Set<Shown>> shown = new HashMap<>();

    @Override
    public synchronized void recordShown(Id team, Id session, long turn, java.util.Collection<Id> memories) {
        for (Id m : memories) {
            shown.computeIfAbsent(team.value() + "/" + m.value(), x -> new java.util.HashSet<>())
                    .add(new Shown(session, turn));
        }
    }

    @Override
    public synchronized List<Shown> snapshotsShowing(Id team, Id memory) {
        return List.copyOf(shown.getOrDefault(team.value() + "/" + memory.value(), java.util.Set.of()));
    }

    @Override
    public synchronized void forgetShown(Id team, Id memory) {
        shown.remove(team.value() + "/" + memory.value());
    }

    @Override
    public synchronized void deleteBlocks(Id team, Id session, java.util.Collection<String> hashes) {
        Map<String, String> held = blocks.get(new Key(team, session));
        if (held != null) {
            hashes.forEach(held::remove);
        }
    }
}
