package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ServerStepsTest {

    @Test
    void parse_shouldReadEveryMetricsDuration_whateverTheSpacing() {
        assertThat(ServerSteps.parse("embed;dur=2.71,search;dur=3.00 , hydrate;desc=\"sqlite\";dur=1.4, cache"))
                .containsExactly(Map.entry("embed", 2.71), Map.entry("search", 3.0), Map.entry("hydrate", 1.4));
    }

    @Test
    void steps_shouldReportPerStepPercentiles_theServiceSum_andTheTimeOutsideIt() {
        ServerSteps steps = new ServerSteps(ServerSteps.RECALL);
        for (int i = 1; i <= 100; i++) {
            steps.add(
                    ServerSteps.parse(
                            "embed;dur=" + i + ", search;dur=1, hydrate;dur=1, rank;dur=0, recall;dur=" + (i + 2)),
                    i + 2 + 0.5);
        }

        assertThat(steps.percentile("embed", 50)).isEqualTo(50.0);
        assertThat(steps.percentile("embed", 99)).isEqualTo(99.0);
        assertThat(steps.percentile(ServerSteps.SERVICE, 50)).isEqualTo(52.0);
        assertThat(steps.percentile(ServerSteps.OUTSIDE, 50)).isEqualTo(0.5);
    }

    @Test
    void add_shouldFail_whenTheServerLeavesAStepOut() {
        ServerSteps steps = new ServerSteps(ServerSteps.WRITE);

        assertThatThrownBy(() -> steps.add(ServerSteps.parse("check;dur=1"), 2.0))
                .hasMessageContaining("lacks store");
        assertThatThrownBy(() -> ServerSteps.parse(null)).hasMessageContaining("no Server-Timing");
    }
}
