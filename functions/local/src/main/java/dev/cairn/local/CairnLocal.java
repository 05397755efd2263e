package dev.cairn.local;

import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.annotations.QuarkusMain;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * Entry point of the runnable jar. With no arguments it serves the API; {@code token ...} mints a local token and
 * {@code bench ...} runs the benchmark, {@code scan-bench ...} the secret-scanner benchmark, {@code session-bench ...} the session-memory benchmark, {@code cache-bench ...} the cache benchmark, {@code sync-bench ...} the team-sync benchmark, all without starting the
 * server (so they work while one is running).
 */
@QuarkusMain
public class CairnLocal {

    public static void main(String... args) {
        if (args.length > 0 && args[0].equals("token")) {
            System.exit(TokenCommand.run(List.of(args).subList(1, args.length), configuredDataDir(), System.out,
                    System.err));
        }
        if (args.length > 0 && args[0].equals("scan-bench")) {
            System.exit(dev.cairn.local.bench.ScanBench.run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("sync-bench")) {
            System.exit(dev.cairn.local.bench.SyncBench.run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("cache-bench")) {
            System.exit(dev.cairn.local.bench.CacheBench.run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("session-bench")) {
            System.exit(dev.cairn.local.bench.SessionBench.run(Arrays.asList(args).subList(1, args.length)));
        }
        if (args.length > 0 && args[0].equals("bench")) {
            System.exit(dev.cairn.local.bench.Bench.run(Arrays.asList(args).subList(1, args.length)));
        }
        Quarkus.run(args);
    }

    /** The same {@code cairn.data-dir} the server uses (system property, CAIRN_DATA_DIR or the default). */
    static Path configuredDataDir() {
        return Path.of(ConfigProvider.getConfig().getOptionalValue("cairn.data-dir", String.class)
                .orElse("./cairn-data"));
    }
}
