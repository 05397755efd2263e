package dev.cairn.embedded;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.time.Instant;
import java.util.List;

/** Test-data builder for memories. */
final class Memories {

    private Memories() {
    }

    static Memory team(String team, String id, String content) {
        return new Memory(new Id(id), new Id(team), null, Scope.TEAM, MemoryType.FACT, content, List.of(new Id("t1")),
                0.5, 1.0, null, Instant.parse("2026-11-01T00:00:00Z"), null, 0, null, List.of(), 1,
                MemoryState.ACTIVE);
    }

    static Memory user(String team, String user, String id, String content) {
        return new Memory(new Id(id), new Id(team), new Id(user), Scope.USER, MemoryType.PREFERENCE, content,
                List.of(), 0.5, 1.0, null, Instant.parse("2026-11-01T00:00:00Z"), null, 0, null, List.of(), 1,
                MemoryState.ACTIVE);
    }

    static Memory at(Memory m, Instant created, double importance) {
        return new Memory(m.id(), m.team(), m.user(), m.scope(), m.type(), m.content(), m.tags(), importance,
                m.confidence(), m.occurredAt(), created, null, 0, null, List.of(), m.version(), m.state());
    }
}
