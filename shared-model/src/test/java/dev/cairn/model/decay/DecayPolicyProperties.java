package dev.cairn.model.decay;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.testkit.Memories;
import java.time.Duration;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/** The decay rule's laws: it only fades, slower for used memories, and only archived memories expire. */
class DecayPolicyProperties {

    private static final Instant CREATED = Instant.parse("2026-01-01T00:00:00Z");
    private final DecayPolicy policy = DecayPolicy.defaults();

    private static Memory memory(double importance, int ageDays, int accesses, MemoryState state) {
        return Memories.memory()
                .team("t")
                .content("x")
                .importance(importance)
                .createdAt(CREATED)
                .accessed(accesses, ageDays < 0 ? null : CREATED.plus(Duration.ofDays(ageDays)))
                .state(state)
                .build();
    }

    @Property(tries = 500)
    void effectiveImportance_shouldNeverGrowWithTime_andNeverExceedTheBase(
            @ForAll @DoubleRange(min = 0, max = 1) double importance,
            @ForAll @IntRange(min = 0, max = 400) int lastAccessDay,
            @ForAll @IntRange(min = 0, max = 50) int accesses,
            @ForAll @IntRange(min = 0, max = 23) int hours) {
        Memory m = memory(importance, lastAccessDay, accesses, MemoryState.ACTIVE);
        Instant morning = CREATED.plus(Duration.ofDays(lastAccessDay + 30));
        Instant later = morning.plus(Duration.ofMinutes(hours));
        assertThat(policy.effectiveImportance(m, later)).isLessThanOrEqualTo(policy.effectiveImportance(m, morning));
        assertThat(policy.effectiveImportance(m, morning)).isLessThanOrEqualTo(importance);
    }

    @Property(tries = 500)
    void aMemoryUsedMoreOften_shouldFadeNoFaster(
            @ForAll @DoubleRange(min = 0.01, max = 1) double importance,
            @ForAll @IntRange(min = 1, max = 40) int accesses,
            @ForAll @IntRange(min = 0, max = 1000) int days) {
        Instant now = CREATED.plus(Duration.ofDays(days));
        double fewer = policy.effectiveImportance(memory(importance, 0, accesses, MemoryState.ACTIVE), now);
        double more = policy.effectiveImportance(memory(importance, 0, accesses + 1, MemoryState.ACTIVE), now);
        assertThat(more).isGreaterThanOrEqualTo(fewer);
        assertThat(fewer).isBetween(0.0, importance);
    }

    @Property(tries = 200)
    void onlyArchivedMemories_shouldExpire(@ForAll @IntRange(min = 0, max = 2000) int days) {
        Instant now = CREATED.plus(Duration.ofDays(days));
        assertThat(policy.verdict(memory(0.5, 0, 0, MemoryState.ACTIVE), now, CREATED))
                .isNotEqualTo(DecayPolicy.Verdict.DELETE);
        // an archived memory expires a year after its archival, however old it was when archived
        Instant archived = CREATED.plus(Duration.ofDays(100));
        assertThat(policy.verdict(memory(0.5, 0, 0, MemoryState.ARCHIVED), now, archived))
                .isEqualTo(days > 465 ? DecayPolicy.Verdict.DELETE : DecayPolicy.Verdict.KEEP);
    }

    @Property(tries = 500)
    void anArchivedMemoryThatCannotExpireYet_shouldBeKept_whenEverItWasArchivedAfterItsLastUse(
            @ForAll @IntRange(min = 0, max = 1000) int lastUseDay,
            @ForAll @IntRange(min = 0, max = 1000) int archivedAfter,
            @ForAll @IntRange(min = 0, max = 2000) int nowDay) {
        Memory m = memory(0.5, lastUseDay, 1, MemoryState.ARCHIVED);
        Instant lastUse = CREATED.plus(Duration.ofDays(lastUseDay));
        Instant archivedAt = lastUse.plus(Duration.ofDays(archivedAfter));
        Instant now = CREATED.plus(Duration.ofDays(Math.max(nowDay, lastUseDay + archivedAfter)));
        // the job skips asking the cold store when mayExpire is false: that must never hide a due deletion
        if (!policy.mayExpire(m, now)) {
            assertThat(policy.verdict(m, now, archivedAt)).isEqualTo(DecayPolicy.Verdict.KEEP);
        }
    }
}
