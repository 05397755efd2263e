package dev.cairn.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.http.TokenVerifier;
import dev.cairn.http.VerificationKeys;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.PublicKey;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The {@code mcp} command's preparation, without Quarkus: what it sets for the stdio server, and what it refuses. */
class McpCommandTest {

    @TempDir
    Path data;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final Map<String, String> properties = new HashMap<>();

    private OptionalInt prepare(String... args) {
        return McpCommand.prepare(
                List.of(args),
                () -> data,
                properties::put,
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void aDataDirectoryWhoseIndexAnotherProcessHolds_shouldBeRefusedAtOnce_namingIt() throws Exception {
        Path lock = data.resolve("index").resolve("write.lock");
        Files.createDirectories(lock.getParent());
        Files.createFile(lock);
        // another JVM holds the OS lock, as a running server's Lucene index does (tryLock answers null here; within one
        // JVM it would throw instead)
        Path holder = data.resolve("HoldLock.java");
        Files.writeString(holder, """
                public class HoldLock {
                    public static void main(String[] a) throws Exception {
                        try (var c = java.nio.channels.FileChannel.open(java.nio.file.Path.of(a[0]),
                                        java.nio.file.StandardOpenOption.WRITE);
                                var l = c.lock()) {
                            System.out.println("locked");
                            System.out.flush();
                            System.in.read();
                        }
                    }
                }
                """);
        Process other = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        holder.toString(),
                        lock.toString())
                .redirectErrorStream(true)
                .start();
        try {
            String first = new java.io.BufferedReader(
                            new java.io.InputStreamReader(other.getInputStream(), StandardCharsets.UTF_8))
                    .readLine();
            assertThat(first).isEqualTo("locked");

            OptionalInt exit = prepare("--team", "acme");

            assertThat(exit).hasValue(2);
            assertThat(err.toString(StandardCharsets.UTF_8))
                    .contains("is in use by another Cairn process")
                    .contains(data.toAbsolutePath().toString());
            assertThat(properties).doesNotContainKey("quarkus.mcp.server.stdio.enabled");
        } finally {
            other.getOutputStream().close();
            other.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            other.destroyForcibly();
        }
        // released (the server stopped): the same directory is fine again
        assertThat(prepare("--team", "acme")).isEmpty();
    }

    @Test
    void prepare_shouldTurnOnStdio_closeHttp_andMintATokenTheServerVerifies() {
        OptionalInt exit = prepare("--team", "acme", "--team", "beta", "--user", "alice");

        assertThat(exit).isEmpty();
        assertThat(properties)
                .containsEntry("quarkus.mcp.server.stdio.enabled", "true")
                .containsEntry("quarkus.http.host-enabled", "false")
                .containsEntry("quarkus.log.console.stderr", "true")
                .doesNotContainKey("cairn.data-dir");
        PublicKey key = LocalSigningKeys.loadOrCreate(data).publicKey();
        Caller caller = new TokenVerifier(new VerificationKeys() {
                    @Override
                    public PublicKey publicKey() {
                        return key;
                    }

                    @Override
                    public String issuer() {
                        return LocalSigningKeys.ISSUER;
                    }
                })
                .verify(properties.get("cairn.mcp.stdio-token"));
        assertThat(caller.user()).isEqualTo(new Id("alice"));
        assertThat(caller.teams()).containsExactlyInAnyOrder(new Id("acme"), new Id("beta"));
        assertThat(out.toString(StandardCharsets.UTF_8))
                .as("stdout is the protocol's")
                .isEmpty();
    }

    @Test
    void prepare_shouldPointTheServerAtTheGivenDataDirectory() {
        assertThat(prepare("--team", "acme", "--data-dir", data.toString())).isEmpty();

        assertThat(properties).containsEntry("cairn.data-dir", data.toString());
    }

    @Test
    void prepare_shouldRefuseToStart_withoutATeam() {
        assertThat(prepare("--user", "alice")).hasValue(2);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains("--team is required");
        assertThat(properties).isEmpty();
    }

    @Test
    void prepare_shouldRefuseToStart_whenATeamIsNotAnId() {
        assertThat(prepare("--team", "../acme")).hasValue(2);

        assertThat(err.toString(StandardCharsets.UTF_8)).contains("'../acme'");
        assertThat(properties).isEmpty();
    }

    @Test
    void prepare_shouldRefuseAnUnknownOption_andAnOptionWithoutItsValue() {
        assertThat(prepare("--team", "acme", "--port", "1")).hasValue(2);
        assertThat(prepare("--team")).hasValue(2);

        assertThat(err.toString(StandardCharsets.UTF_8))
                .contains("unknown option --port")
                .contains("--team needs");
        assertThat(properties).isEmpty();
    }

    @Test
    void prepare_shouldPrintItsUsage_whenAskedForHelp() {
        assertThat(prepare("--help")).hasValue(0);

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(McpCommand.USAGE);
    }
}
