package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.embedded.SqliteMemoryStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.VectorIndex;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code bench [--memories N] [--recalls N] [--baseline-sample N] [--work-dir DIR]}: the foundation benchmark.
 *
 * <p>Every figure is reported as a ratio against a baseline measured in the same run on the same texts, because the
 * machines are shared and absolute numbers drift: ingest through {@code memories:batch} against raw embedding
 * throughput; recall latency (HTTP, end to end) against query-embedding time; HNSW top-10 against exact cosine
 * top-10 over the same vectors; plus seconds from process start to the first answered recall.
 */
public final class Bench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEAM = "bench";
    private static final String USER = "bench-user";
    private static final int BATCH = 500;
    private static final int WRITE_WARM_UP = 30;
    private static final int WRITERS = 4;
    private static final int START_TIMEOUT_S = 600;

    private Bench() {}

    static final List<String> OPTIONS =
            List.of("--memories", "--recalls", "--baseline-sample", "--writes", "--work-dir", "--server-jar", "--jfr");
    static final String SERVER_JAR = "functions/local/target/quarkus-app/quarkus-run.jar";
    static final String USAGE = """
            usage: bench [--memories N] [--recalls N] [--baseline-sample N] [--writes N] [--work-dir DIR]
                         [--server-jar JAR] [--jfr FILE]
            Starts the packaged server on a fresh data directory, ingests synthetic memories, times recalls, single
            writes and recalls while 4 writers write, and prints each figure beside its baseline from the same run;
            writes bench-report.json into the work directory.
              --memories N         memories to ingest through memories:batch (default 100000)
              --recalls N          recall requests to time (default 1000)
              --baseline-sample N  texts embedded raw for the throughput baseline (default min(--memories, 10000))
              --writes N           single POST /memories to time, one client (default 300)
              --work-dir DIR       data directory and report (default a new temporary directory)
              --server-jar JAR     the packaged local server (default functions/local/target/quarkus-app/quarkus-run.jar)
              --jfr FILE           JFR profiles of the server (default none: not recorded): the timed recalls
                                   in FILE, the single writes in FILE with "-writes" before its extension
            example: java -jar functions/bench/target/cairn-bench.jar bench --memories 100000 --recalls 1000
            """;

    public static int run(List<String> args) {
        return Options.run("bench", USAGE, OPTIONS, args, System.out, System.err, o -> {
            int memories = o.positive("--memories", 100_000);
            int recalls = o.positive("--recalls", 1_000);
            int sample = o.positive("--baseline-sample", Math.min(memories, 10_000));
            int writes = o.positive("--writes", 300);
            Path jfr = o.path("--jfr", null);
            Path work = o.path("--work-dir", null);
            Path server = o.path("--server-jar", Path.of(SERVER_JAR));
            try {
                if (work == null) {
                    work = Files.createTempDirectory("cairn-bench-");
                }
                new Bench().execute(memories, recalls, sample, writes, jfr, work, server);
                return 0;
            } catch (Exception e) {
                return Failures.report("bench", e);
            }
        });
    }

    /** A token from the server jar's own {@code token} command, for the data directory the server will use. */
    private static String mintToken(String javaBin, String jar, Path data) throws Exception {
        Process p = new ProcessBuilder(
                        javaBin,
                        "-jar",
                        jar,
                        "token",
                        "--user",
                        USER,
                        "--team",
                        TEAM,
                        "--days",
                        "1",
                        "--data-dir",
                        data.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
        if (p.waitFor() != 0 || lines.isEmpty()) {
            throw new IllegalStateException("the server jar's token command failed (" + jar + ")");
        }
        return lines.get(lines.size() - 1).trim();
    }

    private void execute(int n, int recalls, int sample, int writes, Path jfr, Path work, Path serverJar)
            throws Exception {
        Path data = work.resolve("data");
        List<String> texts = Synthetic.memories(n, 42);
        List<String> queries = Synthetic.queries(recalls, 7);
        log(
                "work dir %s; %d memories, %d recalls, %d cores",
                work, n, recalls, Runtime.getRuntime().availableProcessors());

        // Baselines: raw embedding of the same texts, and query embedding, in this JVM while nothing else runs.
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        OnnxEmbedder embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, pool);
        embedder.embedDocuments(texts.subList(0, Math.min(500, n)));
        long t0 = System.nanoTime();
        for (int from = 0; from < sample; from += BATCH) {
            embedder.embedDocuments(texts.subList(from, Math.min(sample, from + BATCH)));
        }
        double rawPerSec = sample / seconds(t0);
        log("baseline: raw embedding %.1f texts/s (%d texts, batches of %d)", rawPerSec, sample, BATCH);
        for (int i = 0; i < 50; i++) {
            embedder.embedQuery(queries.get(i % queries.size()));
        }
        double[] queryEmbedMs = new double[queries.size()];
        for (int i = 0; i < queries.size(); i++) {
            long s = System.nanoTime();
            embedder.embedQuery(queries.get(i));
            queryEmbedMs[i] = (System.nanoTime() - s) / 1e6;
        }
        double qeP50 = percentile(queryEmbedMs, 50);
        double qeP99 = percentile(queryEmbedMs, 99);
        log("baseline: query embedding p50 %.2f ms, p99 %.2f ms", qeP50, qeP99);

        // The server, started as a user would start it.
        int port = freePort();
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        String jar = serverJar.toString();
        String token = mintToken(javaBin, jar, data);
        long startNanos = System.nanoTime();
        Process server = new ProcessBuilder(
                        javaBin, "-Xmx2g", "-Dcairn.data-dir=" + data, "-Dquarkus.http.port=" + port, "-jar", jar)
                .redirectErrorStream(true)
                .redirectOutput(work.resolve("server.log").toFile())
                .start();
        // HTTP/1.1 with keep-alive, as agents' HTTP clients talk to the server (no h2c upgrade dance)
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        String base = "http://127.0.0.1:" + port + "/v1/teams/" + TEAM;
        try {
            double startSeconds = waitForFirstRecall(http, base, token, startNanos, server);
            log("start to first answered recall: %.2f s", startSeconds);

            // Ingest through the batch route, two clients at a time.
            long ingestStart = System.nanoTime();
            AtomicInteger created = new AtomicInteger();
            ExecutorService clients = Executors.newFixedThreadPool(2);
            List<Future<?>> futures = new ArrayList<>();
            for (int from = 0; from < n; from += BATCH) {
                int f = from;
                futures.add(clients.submit(() -> {
                    created.addAndGet(postBatch(http, base, token, texts, f, Math.min(n, f + BATCH)));
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
            clients.shutdown();
            double ingestPerSec = n / seconds(ingestStart);
            if (created.get() != n) {
                throw new IllegalStateException("only " + created.get() + " of " + n + " memories were created");
            }
            log("ingest: %.1f memories/s through memories:batch", ingestPerSec);

            // Recalls, one client, end to end over HTTP, after a warm-up long enough for the JIT to settle (the
            // server's latency kept falling for the first few hundred recalls).
            for (int i = 0; i < 300; i++) {
                recall(http, base, token, queries.get(i % queries.size()));
            }
            if (jfr != null) {
                jcmd(javaBin, server.pid(), "JFR.start", "name=recall", "settings=profile");
            }
            double[] recallMs = new double[queries.size()];
            ServerSteps steps = new ServerSteps(ServerSteps.RECALL);
            for (int i = 0; i < queries.size(); i++) {
                long s = System.nanoTime();
                Map<String, Double> timing = recall(http, base, token, queries.get(i));
                recallMs[i] = (System.nanoTime() - s) / 1e6;
                steps.add(timing, recallMs[i]);
            }
            if (jfr != null) {
                jcmd(javaBin, server.pid(), "JFR.stop", "name=recall", "filename=" + jfr.toAbsolutePath());
                log("server profile of the timed recalls: %s", jfr.toAbsolutePath());
            }
            double rP50 = percentile(recallMs, 50);
            double rP99 = percentile(recallMs, 99);
            log("recall: p50 %.2f ms, p99 %.2f ms (HTTP, end to end)", rP50, rP99);
            log("recall steps p50 (Server-Timing): %s", steps.summary(50));
            log("recall steps p99 (Server-Timing): %s", steps.summary(99));
            if (!steps.partsSummary(50).isEmpty()) {
                log("recall step parts p50: %s; p99: %s", steps.partsSummary(50), steps.partsSummary(99));
            }

            // Single writes, one client: POST /memories answers once the memory is on disk and recallable.
            List<String> fresh = Synthetic.memories(writes + WRITE_WARM_UP, 4242);
            for (int i = 0; i < WRITE_WARM_UP; i++) {
                postOne(http, base, token, fresh.get(writes + i));
            }
            Path writesJfr = jfr == null ? null : withSuffix(jfr, "-writes");
            if (writesJfr != null) {
                jcmd(javaBin, server.pid(), "JFR.start", "name=writes", "settings=profile");
            }
            double[] writeMs = new double[writes];
            ServerSteps writeSteps = new ServerSteps(ServerSteps.WRITE);
            for (int i = 0; i < writes; i++) {
                writeMs[i] = postOne(http, base, token, fresh.get(i), writeSteps);
            }
            if (writesJfr != null) {
                jcmd(javaBin, server.pid(), "JFR.stop", "name=writes", "filename=" + writesJfr.toAbsolutePath());
                log("server profile of the timed single writes: %s", writesJfr.toAbsolutePath());
            }
            double wP50 = percentile(writeMs, 50);
            double wP99 = percentile(writeMs, 99);
            log("single POST /memories: p50 %.2f ms, p99 %.2f ms (HTTP, end to end)", wP50, wP99);
            log("single write steps p50 (Server-Timing): %s", writeSteps.summary(50));
            log("single write steps p99 (Server-Timing): %s", writeSteps.summary(99));
            if (!writeSteps.partsSummary(50).isEmpty()) {
                log(
                        "single write step parts p50: %s; p99: %s",
                        writeSteps.partsSummary(50), writeSteps.partsSummary(99));
            }

            // Recalls while WRITERS clients write one memory at a time as fast as the server acknowledges.
            ServerSteps contendedSteps = new ServerSteps(ServerSteps.RECALL);
            double[] contended = recallsWhileWriting(http, base, token, queries, contendedSteps);
            double cP50 = contended[0];
            double cP99 = contended[1];
            log(
                    "recall while %d writers write: p50 %.2f ms, p99 %.2f ms; writers acknowledged %.1f memories/s",
                    WRITERS, cP50, cP99, contended[2]);
            log("recall steps p99 while writers write (Server-Timing): %s", contendedSteps.summary(99));
            stop(server);

            // HNSW against exact cosine over the very vectors the server indexed; where a recall's time goes.
            List<String> sampleQueries = queries.subList(0, Math.min(200, queries.size()));
            double[] agreement = agreement(data, embedder, sampleQueries);
            double[] parts = breakdown(data, embedder, sampleQueries);
            log(
                    "in-process p50: query embedding %.2f ms, kNN + exact re-scoring %.2f ms, kNN + BM25 %.2f ms, "
                            + "hydration of the pool from SQLite %.2f ms",
                    parts[0], parts[1], parts[2], parts[3]);
            pool.shutdown();

            ObjectNode report = JSON.createObjectNode();
            report.put("memories", n)
                    .put("recalls", recalls)
                    .put("cores", Runtime.getRuntime().availableProcessors());
            report.put("raw_embedding_per_s", rawPerSec)
                    .put("ingest_per_s", ingestPerSec)
                    .put("ingest_ratio", ingestPerSec / rawPerSec)
                    .put("ingest_ratio_goal", 0.9);
            report.put("query_embedding_p50_ms", qeP50)
                    .put("query_embedding_p99_ms", qeP99)
                    .put("recall_p50_ms", rP50)
                    .put("recall_p99_ms", rP99)
                    .put("recall_p50_ratio", rP50 / qeP50)
                    .put("recall_p99_ratio", rP99 / qeP99)
                    .put("recall_ratio_goal", 1.5)
                    .put("recall_p99_ratio_goal", 2.5);
            report.put("write_p50_ms", wP50)
                    .put("write_p99_ms", wP99)
                    .put("write_p50_ratio", wP50 / qeP50)
                    .put("write_ratio_goal", 3.0);
            report.put("recall_while_writing_p50_ms", cP50)
                    .put("recall_while_writing_p99_ms", cP99)
                    .put("recall_while_writing_p99_ratio", cP99 / qeP99)
                    .put("recall_while_writing_ratio_goal", 3.0)
                    .put("writers", WRITERS)
                    .put("writers_per_s", contended[2]);
            steps.report(report, "recall_step_");
            contendedSteps.report(report, "recall_while_writing_step_");
            writeSteps.report(report, "write_step_");
            report.put("in_process_query_embedding_p50_ms", parts[0])
                    .put("in_process_knn_p50_ms", parts[1])
                    .put("in_process_knn_bm25_p50_ms", parts[2])
                    .put("in_process_hydration_p50_ms", parts[3]);
            report.put("hnsw_top10_agreement_k10", agreement[0])
                    .put("hnsw_top10_agreement_recall_pool", agreement[1])
                    .put("hnsw_top10_agreement_recall_pool_eps_1e-3", agreement[2])
                    .put("agreement_goal", 0.98);
            report.put("start_to_first_recall_s", startSeconds);
            Files.writeString(
                    work.resolve("bench-report.json"),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
            System.out.println();
            System.out.println("=== Cairn foundation benchmark (ratios against baselines of this run) ===");
            System.out.printf(
                    Locale.ROOT,
                    "ingest ÷ raw embedding      %.3f  (%.1f vs %.1f /s; goal ≥ 0.9)%n",
                    ingestPerSec / rawPerSec,
                    ingestPerSec,
                    rawPerSec);
            System.out.printf(
                    Locale.ROOT,
                    "recall p50 ÷ query embed    %.3f  (%.2f vs %.2f ms; goal ≤ 1.5)%n",
                    rP50 / qeP50,
                    rP50,
                    qeP50);
            System.out.printf(
                    Locale.ROOT,
                    "recall p99 ÷ query embed    %.3f  (%.2f vs %.2f ms; goal ≤ 2.5)%n",
                    rP99 / qeP99,
                    rP99,
                    qeP99);
            System.out.printf(
                    Locale.ROOT,
                    "write p50 ÷ query embed     %.3f  (%.2f vs %.2f ms; single POST /memories; goal ≤ 3)%n",
                    wP50 / qeP50,
                    wP50,
                    qeP50);
            System.out.printf(
                    Locale.ROOT,
                    "recall p99 with %d writers ÷ query embed p99  %.3f  (%.2f vs %.2f ms; goal ≤ 3)%n",
                    WRITERS,
                    cP99 / qeP99,
                    cP99,
                    qeP99);
            System.out.printf(
                    Locale.ROOT,
                    "HNSW top-10 agreement       %.4f  (k=10: %.4f; ties within 1e-3: %.4f; " + "goal ≥ 0.98)%n",
                    agreement[1],
                    agreement[0],
                    agreement[2]);
            System.out.printf(Locale.ROOT, "start → first recall        %.2f s%n", startSeconds);
            System.out.println("report: " + work.resolve("bench-report.json"));
        } finally {
            if (server.isAlive()) {
                stop(server);
            }
        }
    }

    /** {@code a/b.jfr} with suffix {@code -x} is {@code a/b-x.jfr}: the second profile sits beside the first. */
    static Path withSuffix(Path file, String suffix) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String renamed = dot > 0 ? name.substring(0, dot) + suffix + name.substring(dot) : name + suffix;
        return file.resolveSibling(renamed);
    }

    private static double waitForFirstRecall(
            HttpClient http, String base, String token, long startNanos, Process server) throws Exception {
        // generous: on 2 cores shared with other builds the server's start alone took over two minutes
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_S);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited with " + server.exitValue());
            }
            try {
                HttpResponse<String> r =
                        http.send(recallRequest(base, token, "warm up"), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return seconds(startNanos);
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(20);
        }
        throw new IllegalStateException("the server did not answer a recall within " + START_TIMEOUT_S + " s");
    }

    /**
     * Posts {@code texts[from, to)} through {@code memories:batch} of the team at {@code base} (a mix of scopes, types
     * and confidences) and returns how many were created. Also used by the AWS-adapters benchmark.
     */
    public static int postBatch(HttpClient http, String base, String token, List<String> texts, int from, int to)
            throws Exception {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode items = body.putArray("memories");
        for (int i = from; i < to; i++) {
            ObjectNode m = items.addObject();
            m.put("content", texts.get(i));
            m.put("scope", i % 5 == 0 ? "user" : "team");
            m.put(
                    "type",
                    switch (i % 6) {
                        case 0 -> "preference";
                        case 1 -> "decision";
                        case 2 -> "convention";
                        case 3 -> "environment";
                        default -> "fact";
                    });
            m.put("confidence", 0.5 + (i % 50) / 100.0);
        }
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "/memories:batch"))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofMinutes(5))
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("batch answered " + r.statusCode() + ": " + r.body());
        }
        int ok = 0;
        for (JsonNode item : JSON.readTree(r.body()).get("results")) {
            if ("created".equals(item.get("status").asText())) {
                ok++;
            }
        }
        return ok;
    }

    /** Sends one recall and returns the server's steps from its {@code Server-Timing} header. */
    private static Map<String, Double> recall(HttpClient http, String base, String token, String query)
            throws Exception {
        HttpResponse<String> r = http.send(recallRequest(base, token, query), HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("recall answered " + r.statusCode() + ": " + r.body());
        }
        // repeated header fields are one comma-separated list (RFC 9110 § 5.3)
        return ServerSteps.parse(String.join(",", r.headers().allValues("Server-Timing")));
    }

    private static HttpRequest recallRequest(String base, String token, String query) throws IOException {
        ObjectNode body = JSON.createObjectNode().put("query", query).put("top_k", 10);
        return HttpRequest.newBuilder(URI.create(base + "/recall"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .build();
    }

    /** One {@code POST /memories}; returns its end-to-end milliseconds. */
    private static double postOne(HttpClient http, String base, String token, String text) throws Exception {
        return postOne(http, base, token, text, null);
    }

    /** As {@link #postOne(HttpClient, String, String, String)}, adding the write's steps to {@code steps}. */
    private static double postOne(HttpClient http, String base, String token, String text, ServerSteps steps)
            throws Exception {
        String body = JSON.writeValueAsString(JSON.createObjectNode()
                .put("content", text)
                .put("scope", "team")
                .put("type", "fact"));
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/memories"))
                .header("Authorization", "Bearer " + token)
                .header("Content-Type", "application/json")
                .timeout(Duration.ofSeconds(30))
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        long s = System.nanoTime();
        HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
        double ms = (System.nanoTime() - s) / 1e6;
        if (r.statusCode() != 201 && r.statusCode() != 200) {
            throw new IllegalStateException("POST /memories answered " + r.statusCode() + ": " + r.body());
        }
        if (steps != null) {
            steps.add(ServerSteps.parse(String.join(",", r.headers().allValues("Server-Timing"))), ms);
        }
        return ms;
    }

    /**
     * Times one recall client while {@link #WRITERS} clients post single memories without pause: [recall p50, p99,
     * memories acknowledged per second during the timed recalls].
     */
    private static double[] recallsWhileWriting(
            HttpClient http, String base, String token, List<String> queries, ServerSteps steps) throws Exception {
        int timed = Math.min(queries.size(), 500);
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        AtomicInteger written = new AtomicInteger();
        ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        List<Future<?>> running = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
            List<String> texts = Synthetic.memories(5_000, 9_000 + w);
            running.add(writers.submit(() -> {
                for (int i = 0; !stop.get(); i = (i + 1) % texts.size()) {
                    postOne(http, base, token, texts.get(i));
                    written.incrementAndGet();
                }
                return null;
            }));
        }
        try {
            for (int i = 0; i < 50; i++) {
                recall(http, base, token, queries.get(i % queries.size()));
            }
            int before = written.get();
            long start = System.nanoTime();
            double[] ms = new double[timed];
            for (int i = 0; i < timed; i++) {
                long s = System.nanoTime();
                Map<String, Double> timing = recall(http, base, token, queries.get(i));
                ms[i] = (System.nanoTime() - s) / 1e6;
                steps.add(timing, ms[i]);
            }
            double perSecond = (written.get() - before) / seconds(start);
            return new double[] {percentile(ms, 50), percentile(ms, 99), perSecond};
        } finally {
            stop.set(true);
            for (Future<?> f : running) {
                f.get(); // a writer's failure fails the bench
            }
            writers.shutdown();
        }
    }

    /**
     * In-process p50s over the data the server wrote, to say where a recall's time goes: [query embedding, kNN with
     * exact re-scoring, kNN + BM25 (the recall's candidate search), hydration of that pool from SQLite].
     */
    private static double[] breakdown(Path data, OnnxEmbedder embedder, List<String> queries) {
        try (LuceneVectorIndex index = new LuceneVectorIndex(data.resolve("index"));
                SqliteMemoryStore store = new SqliteMemoryStore(data.resolve("memories.db"))) {
            VectorIndex.Filter filter = new VectorIndex.Filter(new Id(TEAM), new Id(USER), null, Set.of(), Set.of());
            double[][] ms = new double[4][queries.size()];
            for (int round = 0; round < 2; round++) { // the first round warms the JIT and the page cache
                for (int i = 0; i < queries.size(); i++) {
                    long t0 = System.nanoTime();
                    float[] v = embedder.embedQuery(queries.get(i));
                    long t1 = System.nanoTime();
                    index.search(new VectorIndex.Search(filter, v, embedder.modelId(), null, 50));
                    long t2 = System.nanoTime();
                    List<VectorIndex.Candidate> pool =
                            index.search(new VectorIndex.Search(filter, v, embedder.modelId(), queries.get(i), 50));
                    long t3 = System.nanoTime();
                    store.getAll(
                            new Id(TEAM),
                            pool.stream().map(VectorIndex.Candidate::id).toList());
                    long t4 = System.nanoTime();
                    ms[0][i] = (t1 - t0) / 1e6;
                    ms[1][i] = (t2 - t1) / 1e6;
                    ms[2][i] = (t3 - t2) / 1e6;
                    ms[3][i] = (t4 - t3) / 1e6;
                }
            }
            return new double[] {
                percentile(ms[0], 50), percentile(ms[1], 50), percentile(ms[2], 50), percentile(ms[3], 50)
            };
        }
    }

    /** Runs the JDK's {@code jcmd} (next to this JVM's {@code java}) against the server process. */
    private static void jcmd(String javaBin, long pid, String... command) throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(javaBin).resolveSibling("jcmd").toString());
        cmd.add(Long.toString(pid));
        cmd.addAll(List.of(command));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        if (p.waitFor() != 0) {
            throw new IllegalStateException("jcmd " + String.join(" ", command) + " failed: " + out);
        }
    }

    /**
     * [agreement with k = 10, agreement of the top 10 of the recall's default pool of 50 candidates, the same with
     * ann-benchmarks' tolerance]. A returned neighbour counts when it is one of the exact top 10 or ties the exact
     * 10th similarity within 1e-6 (the first two figures) or within 1e-3 (the third, ann-benchmarks' "k-nn" recall
     * definition), so that equal or near-equal vectors cannot turn the figure into a coin toss.
     */
    private static double[] agreement(Path data, OnnxEmbedder embedder, List<String> queries) {
        try (LuceneVectorIndex index = new LuceneVectorIndex(data.resolve("index"))) {
            VectorIndex.Filter filter = new VectorIndex.Filter(new Id(TEAM), new Id(USER), null, Set.of(), Set.of());
            double k10 = 0;
            double pool = 0;
            double poolLoose = 0;
            for (String q : queries) {
                float[] v = embedder.embedQuery(q);
                List<VectorIndex.Candidate> exactHits = index.exactSearch(filter, v, 10);
                List<VectorIndex.Candidate> approx10 =
                        index.search(new VectorIndex.Search(filter, v, embedder.modelId(), null, 10));
                List<VectorIndex.Candidate> poolHits =
                        new ArrayList<>(index.search(new VectorIndex.Search(filter, v, embedder.modelId(), null, 50)));
                poolHits.sort((a, b) -> Double.compare(b.similarity(), a.similarity()));
                k10 += agreement(exactHits, approx10, 1e-6);
                pool += agreement(exactHits, poolHits.subList(0, Math.min(10, poolHits.size())), 1e-6);
                poolLoose += agreement(exactHits, poolHits.subList(0, Math.min(10, poolHits.size())), 1e-3);
            }
            return new double[] {k10 / queries.size(), pool / queries.size(), poolLoose / queries.size()};
        }
    }

    private static double agreement(
            List<VectorIndex.Candidate> exact, List<VectorIndex.Candidate> approx, double tolerance) {
        if (exact.isEmpty()) {
            return 1;
        }
        Set<Id> truth = new HashSet<>();
        exact.forEach(c -> truth.add(c.id()));
        double tenth = exact.get(exact.size() - 1).similarity();
        long good = approx.stream()
                .filter(c -> truth.contains(c.id()) || c.similarity() >= tenth - tolerance)
                .count();
        return Math.min(good, exact.size()) / (double) exact.size();
    }

    private static void stop(Process server) throws InterruptedException {
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    static double percentile(double[] values, int p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int idx = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, idx))];
    }

    private static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[bench] " + format + "%n", args);
    }
}
