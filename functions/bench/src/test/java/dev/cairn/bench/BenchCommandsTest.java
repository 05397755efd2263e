package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.ToIntFunction;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each bench command's command line, through its own {@code run}: help and usage errors answer before anything is
 * created or loaded (the timeout catches a command that starts its bench instead).
 */
@Timeout(10)
class BenchCommandsTest {

    record Command(String name, ToIntFunction<List<String>> run, String usage, List<String> options) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Command> commands() {
        return Stream.of(
                new Command("bench", Bench::run, Bench.USAGE, Bench.OPTIONS),
                new Command("recall-bench", RecallBench::run, RecallBench.USAGE, RecallBench.OPTIONS),
                new Command("scan-bench", ScanBench::run, ScanBench.USAGE, ScanBench.OPTIONS),
                new Command("corpus-bench", CorpusBench::run, CorpusBench.USAGE, CorpusBench.OPTIONS),
                new Command("session-bench", SessionBench::run, SessionBench.USAGE, SessionBench.OPTIONS),
                new Command("cache-bench", CacheBench::run, CacheBench.USAGE, CacheBench.OPTIONS),
                new Command("sync-bench", SyncBench::run, SyncBench.USAGE, SyncBench.OPTIONS),
                new Command("summary-bench", SummaryBench::run, SummaryBench.USAGE, SummaryBench.OPTIONS));
    }

    static Stream<Arguments> commandsAndHelpFlags() {
        return commands().flatMap(c -> Stream.of(Arguments.of(c, "--help"), Arguments.of(c, "-h")));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("commandsAndHelpFlags")
    void run_shouldPrintTheUsageOnStdoutAndExit0_whenAskedForHelp(Command command, String flag) {
        // GIVEN / WHEN
        Captured c = capture(() -> command.run().applyAsInt(List.of(flag)));

        // THEN
        assertThat(c.exit()).isZero();
        assertThat(c.out()).isEqualTo(command.usage());
        assertThat(c.err()).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void usage_shouldNameEveryOptionTheCommandAccepts_withADefaultAndAnExample(Command command) {
        assertThat(command.usage()).startsWith("usage: " + command.name() + " ");
        for (String option : command.options()) {
            assertThat(command.usage()).contains("[" + option + " ");
            assertThat(command.usage().lines().filter(l -> l.trim().startsWith(option + " ")))
                    .as("the line describing %s", option)
                    .singleElement()
                    .asString()
                    .contains("(default");
        }
        assertThat(command.usage())
                .contains("example: java -jar functions/bench/target/cairn-bench.jar " + command.name());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void run_shouldPrintTheUsageOnStderrAndExit2_whenAnOptionIsUnknown(Command command) {
        Captured c = capture(() -> command.run().applyAsInt(List.of("--no-such-option", "1")));

        assertThat(c.exit()).isEqualTo(2);
        assertThat(c.out()).isEmpty();
        assertThat(c.err()).isEqualTo(command.name() + ": unknown option --no-such-option\n" + command.usage());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void run_shouldExit2_whenTheLastOptionHasNoValue(Command command) {
        String last = command.options().get(command.options().size() - 1);

        Captured c = capture(() -> command.run().applyAsInt(List.of(last)));

        assertThat(c.exit()).isEqualTo(2);
        assertThat(c.err()).startsWith(command.name() + ": " + last + " needs a value\n");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void run_shouldExit2_whenANumberIsNotAPositiveWholeNumber(Command command) {
        List<String> numeric = command.options().stream()
                .filter(o -> command.usage().contains(o + " N"))
                .toList();
        for (String option : numeric) {
            Captured c = capture(() -> command.run().applyAsInt(List.of(option, "0")));

            assertThat(c.exit()).as(option).isEqualTo(2);
            assertThat(c.err()).startsWith(command.name() + ": " + option + " needs a positive whole number, not 0\n");
        }
    }

    @Test
    void summaryBench_shouldExit2_whenTheSplitIsNeitherDevelopmentNorHeldOut() {
        Captured c = capture(() -> SummaryBench.run(List.of("--split", "test")));

        assertThat(c.exit()).isEqualTo(2);
        assertThat(c.err()).startsWith("summary-bench: --split is development or held-out, not test\n");
    }

    record Captured(int exit, String out, String err) {}

    static Captured capture(java.util.function.IntSupplier body) {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream o = new ByteArrayOutputStream();
        ByteArrayOutputStream e = new ByteArrayOutputStream();
        System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
        try {
            int exit = body.getAsInt();
            return new Captured(exit, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
    }
}
