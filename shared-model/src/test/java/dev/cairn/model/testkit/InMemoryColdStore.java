package dev.cairn.model.testkit;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.ColdStore;
import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@link ColdStore} in a map; each copy remembers when it was written (by the given clock, or as a test says with
 * {@link #put(Memory, Instant)}), which is what decides its expiry.
 */
public final class InMemoryColdStore implements ColdStore {

    private record Copy(Memory memory, Instant storedAt) {}

    private final Clock clock;
    private final Map<Id, TreeMap<Id, Copy>> copies = new HashMap<>();

    public InMemoryColdStore(Clock clock) {
        this.clock = clock;
    }

    @Override
    public void put(Memory memory) {
        put(memory, clock.instant());
    }

    /** A copy archived at {@code storedAt}: how a test ages it. */
    public synchronized void put(Memory memory, Instant storedAt) {
        copies.computeIfAbsent(memory.team(), t -> new TreeMap<>()).put(memory.id(), new Copy(memory, storedAt));
    }

    @Override
    public synchronized Optional<Memory> get(Id team, Id id) {
        return copy(team, id).map(Copy::memory);
    }

    @Override
    public synchronized List<Id> list(Id team, int limit) {
        return copies.getOrDefault(team, new TreeMap<>()).keySet().stream()
                .limit(limit)
                .toList();
    }

    @Override
    public synchronized void delete(Id team, Id id) {
        TreeMap<Id, Copy> of = copies.get(team);
        if (of != null) {
            of.remove(id);
        }
    }

    @Override
    public synchronized Optional<Instant> storedAt(Id team, Id id) {
        return copy(team, id).map(Copy::storedAt);
    }

    private Optional<Copy> copy(Id team, Id id) {
        return Optional.ofNullable(copies.getOrDefault(team, new TreeMap<>()).get(id));
    }
}
