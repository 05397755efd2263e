package dev.cairn.model.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryAccessTest {

    private static final Instant CREATED = Instant.parse("2026-11-01T10:00:00Z");

    private static Memory memory(Instant lastAccessedAt, long accessCount) {
        return new Memory(
                new Id("m1"),
                new Id("acme"),
                null,
                Scope.TEAM,
                MemoryType.FACT,
                "Deploys go out on Tuesdays",
                List.of(),
                0.5,
                0.8,
                null,
                CREATED,
                lastAccessedAt,
                accessCount,
                null,
                List.of(),
                3,
                MemoryState.ACTIVE);
    }

    @Test
    void accessedAt_shouldCountOneMoreUseAtThatTime_whenNeverUsedBefore() {
        // GIVEN a memory nobody has read yet
        Memory m = memory(null, 0);
        // WHEN it is used
        Memory used = m.accessedAt(CREATED.plusSeconds(60));
        // THEN it reads as the store now holds it
        assertThat(used.accessCount()).isEqualTo(1);
        assertThat(used.lastAccessedAt()).isEqualTo(CREATED.plusSeconds(60));
    }

    @Test
    void accessedAt_shouldKeepTheLaterLastAccess_whenTheUseIsOlderThanTheLastOne() {
        // GIVEN a memory last used later than the access being counted (a replayed or late statement)
        Memory m = memory(CREATED.plusSeconds(600), 4);
        // WHEN the older use is counted
        Memory used = m.accessedAt(CREATED.plusSeconds(60));
        // THEN the count grows and the last access stays the later one, as MemoryStore.recordAccess keeps it
        assertThat(used.accessCount()).isEqualTo(5);
        assertThat(used.lastAccessedAt()).isEqualTo(CREATED.plusSeconds(600));
    }

    @Test
    void accessedAt_shouldNotChangeTheVersionOrContent_becauseReadsNeverBreakAnotherAgentsIfMatch() {
        Memory m = memory(null, 2);
        Memory used = m.accessedAt(CREATED);
        assertThat(used.version()).isEqualTo(m.version());
        assertThat(used)
                .usingRecursiveComparison()
                .ignoringFields("accessCount", "lastAccessedAt")
                .isEqualTo(m);
    }
}
