package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class RecallStepsTest {

    @Test
    void parse_shouldReadEveryMetricsDuration_whateverTheSpacing() {
        assertThat(RecallSteps.parse("embed;dur=2.71,search;dur=3.00 , hydrate;desc=\"sqlite\";dur=1.4, cache"))
                .containsExactly(Map.entry("embed", 2.71), Map.entry("search", 3.0), Map.entry("hydrate", 1.4));
    }

    @Test
    void steps_shouldReportPerStepPercentiles_andTheTimeOutsideTheRecallService() {
        RecallSteps steps = new RecallSteps();
        for (int i = 1; i <= 100; i++) {
            steps.add(
                    RecallSteps.parse(
                            "embed;dur=" + i + ", search;dur=1, hydrate;dur=1, rank;dur=0, recall;dur=" + (i + 2)),
                    i + 2 + 0.5);
        }

        assertThat(steps.percentile("embed", 50)).isEqualTo(50.0);
        assertThat(steps.percentile("embed", 99)).isEqualTo(99.0);
        assertThat(steps.percentile(RecallSteps.OUTSIDE, 50)).isEqualTo(0.5);
    }

    @Test
    void add_shouldFail_whenTheServerLeavesAStepOut() {
        RecallSteps steps = new RecallSteps();

        assertThatThrownBy(() -> steps.add(RecallSteps.parse("embed;dur=1"), 2.0))
                .hasMessageContaining("lacks search");
        assertThatThrownBy(() -> RecallSteps.parse(null)).hasMessageContaining("no Server-Timing");
    }
}
