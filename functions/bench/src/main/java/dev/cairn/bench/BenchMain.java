package dev.cairn.bench;

import java.io.PrintStream;
import java.util.List;

/**
 * The bench command jar ({@code functions/bench/target/cairn-bench.jar}): the benchmarks live outside the server's
 * production jar and are run as {@code java -jar functions/bench/target/cairn-bench.jar COMMAND [OPTIONS]}. Each
 * command answers {@code --help}; an unknown command prints the usage and exits 2.
 */
public final class BenchMain {

    static final String JAR = "java -jar functions/bench/target/cairn-bench.jar";

    static final String USAGE = """
            usage: java -jar functions/bench/target/cairn-bench.jar COMMAND [OPTIONS]
            commands (each answers --help without starting anything):
              bench          the foundation benchmark (ingest, recall, start-up) against the packaged local server
              recall-bench   recall quality on public conversation benchmarks beside BM25 and dense baselines
              scan-bench     the secret-scanner benchmark against secretlint
              corpus-bench   the secret scanner's recall and false positives on the generated two-part corpus
              session-bench  the session-memory benchmark
              cache-bench    the tool-cache and prompt-cache benchmark
              sync-bench     the team-sync benchmark
              extract-bench  fact extraction on the labelled corpus (per type, per part and language)
              summary-bench  what survives folding into the rolling summary, on the shared datasets
            example: java -jar functions/bench/target/cairn-bench.jar bench --memories 20000 --recalls 500
            """;

    private BenchMain() {}

    public static void main(String... args) {
        System.exit(run(List.of(args), System.out, System.err));
    }

    static int run(List<String> args, PrintStream out, PrintStream err) {
        if (args.isEmpty()) {
            err.print(USAGE);
            return 2;
        }
        List<String> options = args.subList(1, args.size());
        return switch (args.get(0)) {
            case "--help", "-h" -> {
                out.print(USAGE);
                yield 0;
            }
            case "bench" -> Bench.run(options);
            case "recall-bench" -> RecallBench.run(options);
            case "scan-bench" -> ScanBench.run(options);
            case "corpus-bench" -> CorpusBench.run(options);
            case "session-bench" -> SessionBench.run(options);
            case "cache-bench" -> CacheBench.run(options);
            case "sync-bench" -> SyncBench.run(options);
            case "extract-bench" -> ExtractBench.run(options);
            case "summary-bench" -> SummaryBench.run(options);
            default -> {
                err.print("unknown command '" + args.get(0) + "'\n" + USAGE);
                yield 2;
            }
        };
    }
}
