package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the cache routes answer is decided here, not in the resources: cache_control and a hit's age. */
class CacheAnswersTest {

    private static final Instant STORED = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void cacheControl_shouldBeEphemeralWithAnHourTtl_whenTheBreakpointIsAnHourOne() {
        assertThat(new ContextAssembler.Block("tools", "Tools:\n[]", 3, "1h").cacheControl())
                .isEqualTo(Map.of("type", "ephemeral", "ttl", "1h"));
    }

    @Test
    void cacheControl_shouldBeEphemeralWithoutTtl_whenTheBreakpointIsAFiveMinuteOne() {
        // five minutes is the provider's default: not spelled out
        assertThat(new ContextAssembler.Block("messages", "user: hi\n", 3, "5m").cacheControl())
                .isEqualTo(Map.of("type", "ephemeral"));
    }

    @Test
    void cacheControl_shouldBeNull_whenNoBreakpointFollowsTheBlock() {
        assertThat(new ContextAssembler.Block("memories", "- (fact) x\n", 3, null).cacheControl())
                .isNull();
    }

    private static CachedResult entry() {
        return new CachedResult(
                new Id("acme"), new Id("s1"), "k", "read_file", "{\"a\":1}", 7, STORED, STORED.plusSeconds(3600), null);
    }

    @Test
    void agedAt_shouldGiveTheWholeSecondsSinceTheResultWasStored_whenItIsAHit() {
        ToolCache.Lookup hit = new ToolCache.Lookup(true, entry(), null);
        assertThat(hit.ageSeconds()).isNull(); // the key-level hit path reads no wall clock
        assertThat(hit.agedAt(STORED.plusMillis(90_900)).ageSeconds()).isEqualTo(90);
    }

    @Test
    void agedAt_shouldNeverBeNegative_whenAnotherInstancesClockIsAhead() {
        assertThat(new ToolCache.Lookup(true, entry(), null)
                        .agedAt(STORED.minusSeconds(5))
                        .ageSeconds())
                .isZero();
    }

    @Test
    void agedAt_shouldLeaveTheAgeOut_whenItIsAMiss() {
        assertThat(ToolCache.Lookup.miss("miss").agedAt(STORED).ageSeconds()).isNull();
    }
}
