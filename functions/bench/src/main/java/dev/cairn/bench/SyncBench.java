package dev.cairn.bench;

import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.embedded.SqliteMemoryStore;
import dev.cairn.embedded.SqliteSyncStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.SyncConflict;
import dev.cairn.model.sync.SyncOp;
import dev.cairn.model.sync.SyncService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code sync-bench [--commits 800] [--feed 10000] [--work-dir DIR]}: team sync on the embedded default, in-process.
 * Commits per second on one team with one writer and with eight contending writers (each retrying on 409 after
 * pulling the changes), with the 409 rate; then pulling a 10,000-commit change feed against a raw range read of the
 * same log items.
 */
public final class SyncBench {

    private SyncBench() {}

    static final List<String> OPTIONS = List.of("--commits", "--feed", "--work-dir");
    static final String USAGE = """
            usage: sync-bench [--commits N] [--feed N] [--work-dir DIR]
            Times team sync on the embedded stack, in-process: commits per second with one and with eight contending
            writers, then pulling a change feed against a raw range read of the same log.
              --commits N     commits by the single writer; the eight writers share as many (default 800)
              --feed N        commits in the change feed to pull (default 10000)
              --work-dir DIR  stores of the run (default a new temporary directory)
            example: java -jar functions/bench/target/cairn-bench.jar sync-bench --commits 800 --feed 10000
            """;

    public static int run(List<String> args) {
        return Options.run("sync-bench", USAGE, OPTIONS, args, System.out, System.err, SyncBench::run);
    }

    private static int run(Options options) {
        int commits = options.positive("--commits", 800);
        int feed = options.positive("--feed", 10_000);
        Path work = options.path("--work-dir", null);
        try {
            if (work == null) {
                work = Files.createTempDirectory("cairn-sync-bench-");
            }
            OnnxEmbedder embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
            try (SqliteSyncStore store = new SqliteSyncStore(work.resolve("sync.db"));
                    SqliteMemoryStore memories = new SqliteMemoryStore(work.resolve("memories.db"));
                    LuceneVectorIndex index = new LuceneVectorIndex(work.resolve("index"))) {
                SyncService sync = new SyncService(
                        store,
                        memories,
                        new Indexer(memories, index, embedder),
                        SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT),
                        Clock.systemUTC(),
                        SyncService.Limits.defaults(),
                        team -> SyncService.Policy.REJECT);
                double one = writers(sync, new Id("one-writer"), 1, commits);
                double eight = writers(sync, new Id("eight-writers"), 8, commits / 8);
                log(
                        "commits per second on one team: 1 writer %.1f, 8 contending writers %.1f (ratio %.2f)",
                        one, eight, eight / one);
                costs(sync, embedder, memories, new Id("costs"));
                feed(sync, store, new Id("feed"), feed);
            }
            return 0;
        } catch (Exception e) {
            return Failures.report("sync-bench", e);
        }
    }

    /** {@code writers} clients commit {@code each} changes to 50 shared facts; returns acknowledged commits/s. */
    private static double writers(SyncService sync, Id team, int writers, int each) throws Exception {
        Caller caller = new Caller(new Id("bench"), Set.of(team));
        AtomicLong conflicts = new AtomicLong();
        AtomicLong attempts = new AtomicLong();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<?>> done = new ArrayList<>();
        long t0 = System.nanoTime();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                Random r = new Random(writer);
                long pulled = 0;
                for (int i = 0; i < each; i++) {
                    String fact = "f" + r.nextInt(50);
                    String key = "w" + writer + "-" + i;
                    while (true) {
                        attempts.incrementAndGet();
                        try {
                            SyncService.Applied a = sync.sync(
                                    caller,
                                    team,
                                    new SyncService.SyncDraft(
                                            "w" + writer,
                                            pulled,
                                            key,
                                            List.of(new SyncService.OpDraft(
                                                    "upsert",
                                                    fact,
                                                    pulled + 1, // the seed's op version: base_version + 1
                                                    "Service " + fact + " is owned by writer " + writer + " (change "
                                                            + i + ")",
                                                    "fact",
                                                    null,
                                                    null))));
                            if (a.rebasedFrom() == null) {
                                pulled = a.version(); // applied right on the pulled head: nothing in between
                            }
                            break;
                        } catch (SyncConflict e) {
                            conflicts.incrementAndGet();
                            for (Long since = pulled; since != null; ) {
                                SyncService.Changes ch = sync.changes(caller, team, since, 1000);
                                for (Commit c : ch.changes()) {
                                    pulled = c.version();
                                }
                                since = ch.nextSince();
                            }
                        }
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        double seconds = (System.nanoTime() - t0) / 1e9;
        long acknowledged = (long) writers * each;
        log(
                "%d writer(s) × %d commits: %.1f s, %.1f commits/s, 409 rate %.1f %% (%d of %d attempts)",
                writers,
                each,
                seconds,
                acknowledged / seconds,
                100.0 * conflicts.get() / attempts.get(),
                conflicts.get(),
                attempts.get());
        return acknowledged / seconds;
    }

    private static void feed(SyncService sync, SqliteSyncStore store, Id team, int n) {
        Caller caller = new Caller(new Id("bench"), Set.of(team));
        Instant now = Instant.now();
        for (int v = 1; v <= n; v++) {
            // deletes of facts that never existed: log items of realistic shape, nothing to embed
            store.appendCommit(new Commit(
                    team,
                    v,
                    new Id("loader"),
                    "load-" + v,
                    new Id("bench"),
                    now,
                    List.of(new SyncOp(SyncOp.Kind.DELETE, new Id("gone-" + v), v, null, null, null, null))));
        }
        sync.catchUp(team);
        double[] api = new double[5];
        double[] raw = new double[5];
        for (int round = 0; round < api.length; round++) {
            long t0 = System.nanoTime();
            int seen = 0;
            for (Long since = 0L; since != null; ) {
                SyncService.Changes ch = sync.changes(caller, team, since, 1000);
                seen += ch.changes().size();
                since = ch.nextSince();
            }
            api[round] = (System.nanoTime() - t0) / 1e6;
            long t1 = System.nanoTime();
            int rawSeen = 0;
            for (long after = 0; ; ) {
                List<Commit> page = store.commits(team, after, 1000);
                if (page.isEmpty()) {
                    break;
                }
                rawSeen += page.size();
                after = page.get(page.size() - 1).version();
            }
            raw[round] = (System.nanoTime() - t1) / 1e6;
            if (seen != n || rawSeen != n) {
                throw new IllegalStateException("feed saw " + seen + ", raw " + rawSeen + " of " + n);
            }
        }
        java.util.Arrays.sort(api);
        java.util.Arrays.sort(raw);
        log(
                "change feed of %d commits (pages of 1,000): %.1f ms vs raw range read %.1f ms (ratio %.2f; medians of 5)",
                n, api[2], raw[2], api[2] / raw[2]);
    }

    /**
     * What a commit costs against what it must do anyway, in the same run: a one-op commit (p50 of 100) against
     * embedding its fact plus one durable record-store write; a 500-op delta (p50 of 3) against embedding its 500 facts
     * in one batch.
     */
    private static void costs(SyncService sync, OnnxEmbedder embedder, SqliteMemoryStore memories, Id team) {
        Caller caller = new Caller(new Id("bench"), Set.of(team));
        int n = 100;
        double[] commit = new double[n];
        double[] embed = new double[n];
        double[] write = new double[n];
        for (int i = 0; i < n; i++) {
            String text = "Service s" + i + " is deployed by the platform team on Tuesdays (" + i + ")";
            long t0 = System.nanoTime();
            sync.sync(
                    caller,
                    team,
                    new SyncService.SyncDraft(
                            "one-op",
                            (long) i,
                            null,
                            List.of(new SyncService.OpDraft("upsert", "c" + i, null, text, "fact", null, null))));
            commit[i] = (System.nanoTime() - t0) / 1e6;
            String other = "Service t" + i + " is deployed by the data team on Thursdays (" + i + ")";
            long t1 = System.nanoTime();
            embedder.embedDocuments(List.of(other));
            embed[i] = (System.nanoTime() - t1) / 1e6;
            Instant now = Instant.now();
            dev.cairn.model.memory.Memory m = new dev.cairn.model.memory.Memory(
                    new Id("w" + i + "-" + System.nanoTime()),
                    new Id("costs-raw"),
                    null,
                    dev.cairn.model.memory.Scope.TEAM,
                    dev.cairn.model.memory.MemoryType.FACT,
                    other,
                    List.of(),
                    0.5,
                    1.0,
                    now,
                    now,
                    null,
                    0,
                    null,
                    List.of(),
                    1,
                    dev.cairn.model.memory.MemoryState.ACTIVE);
            long t2 = System.nanoTime();
            memories.insertAll(List.of(m));
            write[i] = (System.nanoTime() - t2) / 1e6;
        }
        java.util.Arrays.sort(commit);
        java.util.Arrays.sort(embed);
        java.util.Arrays.sort(write);
        double base = embed[n / 2] + write[n / 2];
        log(
                "one-op commit p50 %.1f ms vs embed %.1f ms + one durable write %.1f ms = %.1f ms (ratio %.2f; goal <= 3)",
                commit[n / 2], embed[n / 2], write[n / 2], base, commit[n / 2] / base);
        double[] big = new double[3];
        double[] batch = new double[3];
        long head = n;
        for (int round = 0; round < big.length; round++) {
            List<SyncService.OpDraft> ops = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                ops.add(new SyncService.OpDraft(
                        "upsert",
                        "b" + round + "-" + i,
                        null,
                        "Batch fact " + i + " of round " + round,
                        "fact",
                        null,
                        null));
                texts.add("Other batch fact " + i + " of round " + round);
            }
            long t0 = System.nanoTime();
            head = sync.sync(caller, team, new SyncService.SyncDraft("big", head, null, ops))
                    .version();
            big[round] = (System.nanoTime() - t0) / 1e6;
            long t1 = System.nanoTime();
            embedder.embedDocuments(texts);
            batch[round] = (System.nanoTime() - t1) / 1e6;
        }
        java.util.Arrays.sort(big);
        java.util.Arrays.sort(batch);
        log(
                "500-op delta p50 %.0f ms vs embedding its 500 facts in one batch %.0f ms (ratio %.2f; goal <= 2)",
                big[1], batch[1], big[1] / batch[1]);
    }

    private static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[sync-bench] " + format + "%n", args);
    }
}
