package dev.cairn.local;

import dev.cairn.mcp.McpStdioGuard;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalInt;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Entry point of the runnable jar. With no arguments it serves the API; {@code token ...} mints a local token without
 * starting the server (so it works while one is running) and answers {@code --help}. Anything else — an unknown word
 * or flag — prints the usage and exits 2 rather than starting a server the caller did not ask for. The benchmarks are
 * a jar of their own ({@code functions/bench}), outside the server's. (Settings go in {@code -D} JVM options, which
 * are not arguments.)
 */
@QuarkusMain
public class CairnLocal {

    static final String USAGE = """
            usage: java -jar functions/local/target/quarkus-app/quarkus-run.jar [COMMAND [OPTIONS]]
            With no command, serves the API on the embedded stack (port: quarkus.http.port, default 8080;
            settings as JVM options before -jar, e.g. -Dcairn.data-dir=DIR).
              --help, -h     this text
            commands (each answers --help without starting anything):
              token          mint a local JWT for a user and teams
              sync --once    one pass of team sync with the remote team server (cairn.sync.remote.*), then exit
              mcp            serve MCP over stdio for one user and team (no HTTP port)
            the benchmarks: java -jar functions/bench/target/cairn-bench.jar --help
            example: java -jar functions/local/target/quarkus-app/quarkus-run.jar token --user alice --team acme
            """;

    public static void main(String... args) {
        OptionalInt exit = command(List.of(args), System.out, System.err);
        if (exit.isPresent()) {
            System.exit(exit.getAsInt());
        }
        if (args.length > 0 && args[0].equals("mcp")) {
            // before the stdio transport takes System.in: a message it would fail on is answered here instead
            System.setIn(McpStdioGuard.ofApplication(System.in, System.out));
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
            case "sync" -> {
                int status = SyncOnceCommand.check(options, out, err);
                if (status >= 0) {
                    yield OptionalInt.of(status);
                }
                // a pass needs the stores: start Quarkus for it (on a free port, beside no server), then exit; no
                // scheduled pass beside the command's own (a trial saw it do the work and the command print an empty
                // pass), and stdout for the answer only
                System.setProperty("quarkus.http.port", "0");
                System.setProperty("cairn.sync.remote.interval", "off");
                System.setProperty("quarkus.log.console.stderr", "true");
                Quarkus.run(SyncOnceCommand.class, (code, failure) -> {
                    if (failure != null) {
                        String why = SyncOnceCommand.rootMessage(failure);
                        err.println("sync: cannot start: " + why
                                + (why.toLowerCase(java.util.Locale.ROOT).contains("lock")
                                        ? " (is a server running on this data directory? it holds the stores' locks)"
                                        : ""));
                    }
                    System.exit(code);
                });
                yield OptionalInt.of(0);
            }
            case "mcp" -> McpCommand.prepare(options, CairnLocal::configuredDataDir, System::setProperty, out, err);
            default -> {
                err.print((args.get(0).startsWith("-") ? "unknown option " : "unknown command ") + args.get(0) + "\n"
                        + USAGE);
                yield OptionalInt.of(2);
            }
        };
    }

    /** The same {@code cairn.data-dir} the server uses (system property, CAIRN_DATA_DIR or the default). */
    static Path configuredDataDir() {
        return Path.of(ConfigProvider.getConfig()
                .getOptionalValue("cairn.data-dir", String.class)
                .orElse("./cairn-data"));
    }
}
