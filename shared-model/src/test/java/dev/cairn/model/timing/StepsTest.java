package dev.cairn.model.timing;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class StepsTest {

    @Test
    void add_shouldSumRepeatedSteps_inTheOrderFirstSeen() {
        try (Steps steps = Steps.open()) {
            Steps.add("store", 1_200_000);
            Steps.add("embed", 2_714_999);
            Steps.add("store", 300_000);

            assertThat(steps.serverTiming()).isEqualTo("store;dur=1.50, embed;dur=2.71");
        }
    }

    @Test
    void add_shouldRecordNothing_whenNoRecorderIsOpen_orAfterItClosed() {
        Steps.add("embed", 1_000_000); // no recorder: ignored, no failure
        Steps steps = Steps.open();
        steps.close();
        Steps.add("embed", 1_000_000);

        assertThat(steps.nanos()).isEmpty();
    }

    @Test
    void nestedRecorder_shouldHideTheOuterOne_untilItCloses() {
        try (Steps outer = Steps.open()) {
            Steps.add("check", 1_000_000);
            try (Steps inner = Steps.open()) {
                Steps.add("embed", 2_000_000);
                assertThat(inner.nanos()).isEqualTo(Map.of("embed", 2_000_000L));
            }
            Steps.add("index", 3_000_000);

            assertThat(outer.nanos()).isEqualTo(Map.of("check", 1_000_000L, "index", 3_000_000L));
        }
    }

    @Test
    void otherThreads_shouldNotReportIntoThisThreadsRecorder() throws Exception {
        try (Steps steps = Steps.open()) {
            Thread t = new Thread(() -> Steps.add("embed", 5_000_000));
            t.start();
            t.join();

            assertThat(steps.nanos()).isEmpty();
        }
    }
}
