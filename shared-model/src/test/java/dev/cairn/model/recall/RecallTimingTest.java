package dev.cairn.model.recall;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RecallTimingTest {

    @Test
    void serverTimingHeader_shouldNameEveryStepInMilliseconds_andTheirSum() {
        RecallResult.Timing t = new RecallResult.Timing(2_713_000, 3_000_000, 1_404_999, 200_000);

        assertThat(t.serverTimingHeader())
                .isEqualTo("embed;dur=2.71, search;dur=3.00, hydrate;dur=1.40, rank;dur=0.20, recall;dur=7.32");
    }
}
