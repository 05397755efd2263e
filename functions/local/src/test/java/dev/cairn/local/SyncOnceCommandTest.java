package dev.cairn.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code sync}'s arguments, checked before anything starts (no Quarkus, no data directory). */
class SyncOnceCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int check(String... args) {
        return SyncOnceCommand.check(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void help_shouldPrintTheUsageAndExit0_withoutStartingAPass() {
        assertThat(check("--help")).isZero();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(SyncOnceCommand.USAGE);
    }

    @Test
    void anythingButOnce_shouldExit2WithTheUsageOnStderr() {
        assertThat(check()).isEqualTo(2);
        assertThat(check("--forever")).isEqualTo(2);
        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("expected --once")
                .contains("usage:");
    }

    @Test
    void once_shouldStartAPass() {
        assertThat(check("--once")).isEqualTo(-1);
        assertThat(out.toString(StandardCharsets.UTF_8)).isEmpty();
    }
}
