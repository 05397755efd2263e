package dev.cairn.model.decay;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ScheduledDecayMarginTest {

    @Test
    void marginOf_shouldLeaveAMinute_whenMoreThanTwoMinutesAreLeft() {
        assertThat(ScheduledDecay.marginOf(Duration.ofMinutes(15))).isEqualTo(Duration.ofSeconds(60));
    }

    @Test
    void marginOf_shouldLeaveATenth_whenTwoMinutesOrLessAreLeft() {
        assertThat(ScheduledDecay.marginOf(Duration.ofMinutes(2))).isEqualTo(Duration.ofSeconds(12));
        assertThat(ScheduledDecay.marginOf(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(3));
    }
}
