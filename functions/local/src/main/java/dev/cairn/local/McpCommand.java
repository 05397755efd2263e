package dev.cairn.local;

import dev.cairn.model.id.Id;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * {@code mcp --team acme [--team beta] [--user alice] [--data-dir DIR]}: the server on stdio, for MCP clients that
 * start servers as processes (Claude Desktop, Claude Code's stdio servers). There is no HTTP request to carry a bearer
 * token, so the command mints one from the data directory's key, exactly as {@code token} would, and the tools verify
 * it like any other. The HTTP port stays closed (a server already running on the port is no conflict), and logs go to
 * stderr: stdout carries the protocol only.
 */
final class McpCommand {

    private McpCommand() {}

    static final String USAGE = """
            usage: mcp --team TEAM [--team TEAM ...] [--user USER] [--data-dir DIR]
            Serves the MCP tools over stdin/stdout as USER with the given teams (no HTTP port). Give it a data
            directory no running server uses: the embedded stores are one process's at a time.
              --team TEAM     a team the session may use; repeat for more (at least one)
              --user USER     whose memories these are (default local)
              --data-dir DIR  the data directory (default cairn.data-dir, else ./cairn-data)
            example: java -jar functions/local/target/quarkus-app/quarkus-run.jar mcp --team acme
            """;

    /** A lifetime longer than any stdio process; the token never leaves the process. */
    static final Duration TOKEN_LIFETIME = Duration.ofDays(3650);

    /**
     * Sets the properties that turn the server into a stdio MCP server and answers empty (start it), or an exit status
     * when the options are wrong or ask for help.
     */
    static OptionalInt prepare(
            List<String> args,
            Supplier<Path> defaultDataDir,
            BiConsumer<String, String> setProperty,
            PrintStream out,
            PrintStream err) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(USAGE);
            return OptionalInt.of(0);
        }
        String user = "local";
        List<String> teams = new ArrayList<>();
        Path dataDir = null;
        try {
            for (int i = 0; i < args.size(); i += 2) {
                String a = args.get(i);
                String value = i + 1 < args.size() && !args.get(i + 1).startsWith("--") ? args.get(i + 1) : null;
                if (value == null) {
                    throw new IllegalArgumentException(
                            TokenCommand.OPTIONS.contains(a) ? a + " needs a value" : "unknown option " + a);
                }
                switch (a) {
                    case "--user" -> user = value;
                    case "--team" -> teams.add(value);
                    case "--data-dir" -> dataDir = Path.of(value);
                    default -> throw new IllegalArgumentException("unknown option " + a);
                }
            }
            if (teams.isEmpty()) {
                throw new IllegalArgumentException("--team is required");
            }
            for (String id : concat(user, teams)) {
                String problem = Id.problemWith(id);
                if (problem != null) {
                    throw new IllegalArgumentException(
                            "'" + id + "' " + problem + " (ids match ^[a-z0-9][a-z0-9_-]{0,63}$)");
                }
            }
        } catch (IllegalArgumentException e) {
            err.println("mcp: " + e.getMessage());
            err.print(USAGE);
            return OptionalInt.of(2);
        }
        Path dir = dataDir != null ? dataDir : defaultDataDir.get();
        if (indexInUse(dir)) {
            // the stores open at the first tool call: without this, initialize and tools/list answer, and the first
            // call fails as "Internal error" with the lock's message on stderr only (a new user's trial)
            err.println("mcp: the data directory " + dir.toAbsolutePath() + " is in use by another Cairn process (its"
                    + " index is locked). Stop that process, or give this command a data directory of its own"
                    + " (--data-dir), or connect to the running server over HTTP (/mcp).");
            return OptionalInt.of(2);
        }
        if (dataDir != null) {
            setProperty.accept("cairn.data-dir", dataDir.toString());
        }
        setProperty.accept("cairn.mcp.stdio-token", TokenCommand.mint(dir, user, teams, TOKEN_LIFETIME));
        setProperty.accept("quarkus.mcp.server.stdio.enabled", "true");
        setProperty.accept("quarkus.log.console.stderr", "true");
        setProperty.accept("quarkus.http.host-enabled", "false");
        return OptionalInt.empty();
    }

    /**
     * Whether another process holds the index's lock in {@code dataDir}: Lucene holds an OS lock on
     * {@code index/write.lock} for as long as a server has the index open. Taken and released at once, before this
     * process opens anything.
     */
    static boolean indexInUse(Path dataDir) {
        Path lock = dataDir.resolve("index").resolve("write.lock");
        if (!java.nio.file.Files.exists(lock)) {
            return false;
        }
        try (java.nio.channels.FileChannel channel =
                java.nio.channels.FileChannel.open(lock, java.nio.file.StandardOpenOption.WRITE)) {
            java.nio.channels.FileLock held = channel.tryLock();
            if (held == null) {
                return true;
            }
            held.release();
            return false;
        } catch (java.nio.channels.OverlappingFileLockException e) {
            return true; // this very process holds it
        } catch (java.io.IOException e) {
            return false; // cannot tell: let the stores report it
        }
    }

    private static List<String> concat(String user, List<String> teams) {
        List<String> all = new ArrayList<>(teams);
        all.add(0, user);
        return all;
    }
}
