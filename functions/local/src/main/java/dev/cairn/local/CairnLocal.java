package dev.cairn.local;

import dev.cairn.local.bench.Bench;
import dev.cairn.local.bench.CacheBench;
import dev.cairn.local.bench.ScanBench;
import dev.cairn.local.bench.SessionBench;
import dev.cairn.local.bench.SyncBench;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Entry point of the runnable jar. With no arguments it serves the API; {@code token ...} mints a local token and
 * {@code bench ...} runs the benchmark, {@code scan-bench ...} the secret-scanner benchmark, {@code session-bench ...}
 * the session-memory benchmark, {@code cache-bench ...} the cache benchmark, {@code sync-bench ...} the team-sync
 * benchmark, all without starting the server (so they work while one is running). Each answers {@code --help}.
 */
@QuarkusMain
public class CairnLocal {

    static final String USAGE = """
            usage: java -jar functions/local/target/quarkus-app/quarkus-run.jar [COMMAND [OPTIONS]]
            With no command, serves the API on the embedded stack (port: quarkus.http.port, default 8080).
            commands (each answers --help without starting anything):
              token          mint a local JWT for a user and teams
              bench          the foundation benchmark (ingest, recall, start-up)
              scan-bench     the secret-scanner benchmark against secretlint
              session-bench  the session-memory benchmark
              cache-bench    the tool-cache and prompt-cache benchmark
              sync-bench     the team-sync benchmark
            example: java -jar functions/local/target/quarkus-app/quarkus-run.jar token --user alice --team acme
            """;

    public static void main(String... args) {
        OptionalInt exit = command(List.of(args), System.out, System.err);
        if (exit.isPresent()) {
            System.exit(exit.getAsInt());
        }
        Quarkus.run(args);
    }

    /** The exit status of the command {@code args} name, or empty when they name none and the server should start. */
    static OptionalInt command(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            return OptionalInt.empty();
        }
        List<String> options = args.subList(1, args.size());
        return switch (args.get(0)) {
            case "--help", "-h" -> {
                out.print(USAGE);
                yield OptionalInt.of(0);
            }
            case "token" -> OptionalInt.of(TokenCommand.run(options, CairnLocal::configuredDataDir, out, err));
            case "bench" -> OptionalInt.of(Bench.run(options));
            case "scan-bench" -> OptionalInt.of(ScanBench.run(options));
            case "session-bench" -> OptionalInt.of(SessionBench.run(options));
            case "cache-bench" -> OptionalInt.of(CacheBench.run(options));
            case "sync-bench" -> OptionalInt.of(SyncBench.run(options));
            default -> OptionalInt.empty();
        };
    }

    /** The same {@code cairn.data-dir} the server uses (system property, CAIRN_DATA_DIR or the default). */
    static Path configuredDataDir() {
        return Path.of(ConfigProvider.getConfig().getOptionalValue("cairn.data-dir", String.class)
                .orElse("./cairn-data"));
    }
}
