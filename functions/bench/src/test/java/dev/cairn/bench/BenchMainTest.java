package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchMainTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return BenchMain.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void help_shouldListEveryBenchCommand_onStdout() {
        assertThat(run("--help")).isZero();
        String usage = out.toString(StandardCharsets.UTF_8);
        for (String c : List.of("bench", "scan-bench", "session-bench", "cache-bench", "sync-bench")) {
            assertThat(usage).containsPattern("(?m)^  " + c + " ");
        }
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    @Test
    void anUnknownOrMissingCommand_shouldPrintTheUsageOnStderr_andExit2() {
        assertThat(run("benhc")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("unknown command 'benhc'")
                .contains("usage:");
        err.reset();
        assertThat(run()).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("usage:");
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }

    /** The commands print to the process's stdout (their texts are BenchCommandsTest's); here: each is dispatched. */
    @Test
    void eachCommand_shouldAnswerHelpThroughTheJarsDispatch_withoutRunning() {
        for (String c : List.of("bench", "scan-bench", "session-bench", "cache-bench", "sync-bench")) {
            assertThat(run(c, "--help")).as(c).isZero();
            assertThat(run(c, "--no-such-option")).as(c).isEqualTo(2);
        }
    }
}
