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
    void parts_shouldBeReportedBesideTheSteps_withoutCountingTwiceInTheService() {
        ServerSteps steps = new ServerSteps(ServerSteps.RECALL);
        for (int i = 1; i <= 10; i++) {
            steps.add(
                    ServerSteps.parse("embed;dur=3, search;dur=2, hydrate;dur=1, rank;dur=0, recall;dur=6,"
                            + " search.knn;dur=1.5, search.bm25;dur=" + (i / 10.0)),
                    7.0);
        }

        assertThat(steps.percentile(ServerSteps.SERVICE, 50)).isEqualTo(6.0);
        assertThat(steps.percentile("search.knn", 50)).isEqualTo(1.5);
        assertThat(steps.partsSummary(50)).isEqualTo("search.knn 1.50, search.bm25 0.50");
        assertThat(new ServerSteps(ServerSteps.RECALL).partsSummary(50)).isEmpty();
    }

    @Test
    void add_shouldFail_whenTheServerLeavesAStepOut() {
        ServerSteps steps = new ServerSteps(ServerSteps.WRITE);

        assertThatThrownBy(() -> steps.add(ServerSteps.parse("check;dur=1"), 2.0))
                .hasMessageContaining("lacks store");
        assertThatThrownBy(() -> ServerSteps.parse(null)).hasMessageContaining("no Server-Timing");
    }
}
