package dev.cairn.local;

import io.quarkus.runtime.QuarkusApplication;
import jakarta.inject.Inject;
import java.io.PrintStream;
import java.util.List;

/**
 * {@code sync --once}: one remote sync pass over the configured teams, then exit (0 when every team synced). Runs on
 * the data directory of a server that is not running (the index takes a lock); a running server syncs by itself
 * every {@code cairn.sync.remote.interval}.
 */
public class SyncOnceCommand implements QuarkusApplication {

    static final String USAGE = """
            usage: java -jar functions/local/target/quarkus-app/quarkus-run.jar sync --once
            One pass of remote team sync: pull the team server's changes into local memory, upload the local team
            memories changed since the last pass, then exit. Configure with -Dcairn.sync.remote.url=...,
            -Dcairn.sync.remote.token=..., -Dcairn.sync.remote.teams=acme[,beta] (and cairn.data-dir).
            """;

    @Inject
    RemoteSync sync;

    /** The exit status for arguments that do not start a pass, or -1 when they do. */
    static int check(List<String> options, PrintStream out, PrintStream err) {
        if (options.equals(List.of("--help")) || options.equals(List.of("-h"))) {
            out.print(USAGE);
            return 0;
        }
        if (!options.equals(List.of("--once"))) {
            err.println("sync: expected --once, got " + options);
            err.print(USAGE);
            return 2;
        }
        return -1;
    }

    /** The innermost message of a failure, for one line on stderr. */
    static String rootMessage(Throwable failure) {
        Throwable t = failure;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage();
    }

    @Override
    public int run(String... args) {
        List<String> lines = sync.once();
        lines.forEach(System.out::println);
        return !sync.enabled() || lines.stream().anyMatch(l -> l.contains(": failed: ")) ? 1 : 0;
    }
}
