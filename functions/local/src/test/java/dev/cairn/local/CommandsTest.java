package dev.cairn.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The jar's own command line and the {@code token} command, without Quarkus (no command here starts it). */
class CommandsTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private OptionalInt command(String... args) {
        return CairnLocal.command(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void command_shouldListEveryCommandOnStdout_whenAskedForHelp(String flag) {
        assertThat(command(flag)).hasValue(0);

        assertThat(out()).isEqualTo(CairnLocal.USAGE);
        for (String c : List.of("token", "mcp")) {
            assertThat(out()).containsPattern("(?m)^  " + c + " ");
        }
        assertThat(err()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"serve-please", "--bogus", "-x", "bench"})
    void command_shouldPrintTheUsageOnStderrAndExit2_insteadOfStartingTheServer_whenTheWordIsUnknown(String word) {
        assertThat(command(word, "--help")).hasValue(2);

        assertThat(out()).isEmpty();
        assertThat(err()).endsWith(CairnLocal.USAGE).contains(word);
        assertThat(err().lines().findFirst().orElseThrow()).startsWith("unknown ");
    }

    @Test
    void token_shouldGiveOneLineWithoutAStackTrace_whenAnIdIsNotAnId() {
        assertThat(command("token", "--user", "alice", "--team", "ACME")).hasValue(2);

        assertThat(out()).isEmpty();
        assertThat(err().lines().findFirst().orElseThrow())
                .startsWith("token: --team ACME: ")
                .contains("^[a-z0-9]");
        assertThat(err()).doesNotContain("Exception").doesNotContain("\tat ");
    }

    @Test
    void token_shouldSayWhichDataDirectorysKeyItUsed_andWhenItCreatedOne(@TempDir Path dataDir) {
        List<String> args = List.of("--user", "alice", "--data-dir", dataDir.toString());
        PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);

        assertThat(TokenCommand.run(args, () -> null, o, e)).isZero();
        assertThat(err()).contains("created one in " + dataDir.toAbsolutePath().resolve("keys"));
        err.reset();
        assertThat(TokenCommand.run(args, () -> null, o, e)).isZero();
        assertThat(err())
                .isEqualTo("token: signed with the key in "
                        + dataDir.toAbsolutePath().resolve("keys") + "\n");
    }

    @Test
    void command_shouldLeaveTheServerToStart_whenNoCommandIsGiven() {
        assertThat(command()).isEmpty();
        assertThat(out()).isEmpty();
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h"})
    void token_shouldPrintItsUsageOnStdout_withoutReadingTheDataDirectory(String flag) {
        // GIVEN a default data directory that fails if asked for
        // WHEN
        int exit = TokenCommand.run(
                List.of("--user", "alice", flag),
                () -> {
                    throw new AssertionError("--help must not look for the data directory");
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        // THEN
        assertThat(exit).isZero();
        assertThat(out()).isEqualTo(TokenCommand.USAGE);
        assertThat(err()).isEmpty();
    }

    @Test
    void tokenCommand_shouldAnswerHelpThroughTheJarsDispatch() {
        assertThat(command("token", "--help")).hasValue(0);
        assertThat(out()).isEqualTo(TokenCommand.USAGE);
    }

    @Test
    void tokenUsage_shouldNameEveryOptionItAccepts_withADefaultAndAnExample() {
        for (String option : TokenCommand.OPTIONS) {
            assertThat(TokenCommand.USAGE).contains(option + " ");
            assertThat(TokenCommand.USAGE.lines().filter(l -> l.trim().startsWith(option + " ")))
                    .as("the line describing %s", option)
                    .singleElement()
                    .asString()
                    .containsAnyOf("(default", "(required)");
        }
        assertThat(TokenCommand.USAGE)
                .contains("example: java -jar functions/local/target/quarkus-app/quarkus-run.jar token ");
    }

    @Test
    void token_shouldPrintTheUsageOnStderrAndExit2_whenAnOptionIsUnknown() {
        assertThat(command("token", "--user", "alice", "--colour", "red")).hasValue(2);

        assertThat(out()).isEmpty();
        assertThat(err()).isEqualTo("token: unknown option --colour\n" + TokenCommand.USAGE);
    }

    @Test
    void token_shouldExit2_whenDaysIsNotANumber() {
        assertThat(command("token", "--user", "alice", "--days", "soon")).hasValue(2);

        assertThat(err()).startsWith("token: --days needs a whole number, not soon\n");
    }

    @Test
    void token_shouldPrintAJwt_whenTheOptionsAreValid(@TempDir Path dataDir) {
        int exit = TokenCommand.run(
                List.of("--user", "alice", "--team", "acme", "--data-dir", dataDir.toString()),
                () -> {
                    throw new AssertionError("--data-dir was given");
                },
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));

        assertThat(exit).isZero();
        assertThat(out().trim()).matches("[\\w-]+\\.[\\w-]+\\.[\\w-]+");
    }
}
