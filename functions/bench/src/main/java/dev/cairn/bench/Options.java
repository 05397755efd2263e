package dev.cairn.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToIntFunction;

/**
 * The {@code --name value} options of one bench command. {@code --help} or {@code -h} prints the command's usage on
 * stdout and exits 0; an unknown option, a missing or malformed value prints the usage on stderr and exits 2 — in
 * both cases before the bench creates or loads anything.
 */
final class Options {

    private final List<String> accepted;
    private final Map<String, String> values;

    private Options(List<String> accepted, Map<String, String> values) {
        this.accepted = accepted;
        this.values = values;
    }

    /** A wrong command line: the caller shows the usage and exits 2. */
    static final class UsageError extends RuntimeException {
        UsageError(String message) {
            super(message);
        }
    }

    /**
     * Runs {@code body} on the parsed options unless the command line asks for help or is wrong. {@code body} reads
     * its options first, so a malformed value is still a usage error and not a failed run.
     */
    static int run(
            String command,
            String usage,
            List<String> accepted,
            List<String> args,
            PrintStream out,
            PrintStream err,
            ToIntFunction<Options> body) {
        if (args.contains("--help") || args.contains("-h")) {
            out.print(usage);
            return 0;
        }
        try {
            return body.applyAsInt(parse(accepted, args));
        } catch (UsageError e) {
            err.println(command + ": " + e.getMessage());
            err.print(usage);
            return 2;
        }
    }

    static Options parse(List<String> accepted, List<String> args) {
        Map<String, String> values = new HashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            String name = args.get(i);
            if (!accepted.contains(name)) {
                throw new UsageError("unknown option " + name);
            }
            if (i + 1 >= args.size() || args.get(i + 1).startsWith("--")) {
                throw new UsageError(name + " needs a value");
            }
            values.put(name, args.get(i + 1));
        }
        return new Options(accepted, values);
    }

    int positive(String name, int fallback) {
        String v = value(name);
        if (v == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(v);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below, with the option's name
        }
        throw new UsageError(name + " needs a positive whole number, not " + v);
    }

    String string(String name, String fallback) {
        String v = value(name);
        return v == null ? fallback : v;
    }

    Path path(String name, Path fallback) {
        String v = value(name);
        return v == null ? fallback : Path.of(v);
    }

    String value(String name) {
        if (!accepted.contains(name)) {
            // a bench reading an option its usage does not name: a programming error, not a user's
            throw new IllegalStateException(name + " is not among " + accepted);
        }
        return values.get(name);
    }
}
