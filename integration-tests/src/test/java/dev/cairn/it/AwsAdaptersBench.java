package dev.cairn.it;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.bench.Bench;
import dev.cairn.bench.Synthetic;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.testkit.Memories;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/**
 * The AWS-adapters benchmark (not a test: run it on purpose, see the README's bench section).
 *
 * <p>In one run, against the same texts: ingest through {@code memories:batch} and recall latency (HTTP, end to end)
 * of a server on the AWS adapters (dynalite + a local OpenSearch node) as ratios to a server on the embedded default;
 * then where the time goes, per memory and per recall, measured on the adapters in this JVM: embedding, DynamoDB,
 * OpenSearch. Size with {@code -Dcairn.bench.memories} (default 20,000) and {@code -Dcairn.bench.recalls} (500).
 */
class AwsAdaptersBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int BATCH = 500;
    private static final String TEAM = "bench";

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(2))
            .build();

    record Run(double ingestPerSec, double p50, double p99) {}

    @Test
    void awsAdapters_versus_embeddedDefault() throws Exception {
        assumeFalse(LocalServer.awsBackend(), "runs once, in the default execution");
        int n = Integer.getInteger("cairn.bench.memories", 20_000);
        int recalls = Integer.getInteger("cairn.bench.recalls", 500);
        List<String> texts = Synthetic.memories(n, 42);
        List<String> queries = Synthetic.queries(recalls, 7);
        Dynalite.ensureStarted();
        OpenSearchNode.ensureStarted();

        Run embedded = run(false, texts, queries);
        Run aws = run(true, texts, queries);
        log(
                "embedded: ingest %.1f/s, recall p50 %.2f ms p99 %.2f ms",
                embedded.ingestPerSec(), embedded.p50(), embedded.p99());
        log("aws     : ingest %.1f/s, recall p50 %.2f ms p99 %.2f ms", aws.ingestPerSec(), aws.p50(), aws.p99());

        ObjectNode report = JSON.createObjectNode().put("memories", n).put("recalls", recalls);
        report.putObject("embedded")
                .put("ingest_per_s", embedded.ingestPerSec())
                .put("recall_p50_ms", embedded.p50())
                .put("recall_p99_ms", embedded.p99());
        report.putObject("aws")
                .put("ingest_per_s", aws.ingestPerSec())
                .put("recall_p50_ms", aws.p50())
                .put("recall_p99_ms", aws.p99());
        report.putObject("ratios_aws_to_embedded")
                .put("ingest", aws.ingestPerSec() / embedded.ingestPerSec())
                .put("recall_p50", aws.p50() / embedded.p50())
                .put("recall_p99", aws.p99() / embedded.p99());
        report.set("where_time_goes", breakdown(texts, queries));
        Path out = LocalServer.workDir().resolveSibling("bench-aws.json");
        Files.writeString(out, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        log("report written to %s", out);
    }

    private Run run(boolean onAws, List<String> texts, List<String> queries) throws Exception {
        Path data = Files.createTempDirectory(LocalServer.workDir(), onAws ? "bench-aws-" : "bench-embedded-");
        LocalServer server = new LocalServer(data);
        if (onAws) {
            server.onAwsAdapters();
        }
        try (LocalServer s = server.start("-Xmx2g")) {
            s.awaitHealth("/q/health/ready");
            String token = s.token("bench-user", TEAM);
            String base = s.baseUrl() + "/v1/teams/" + TEAM;
            long t0 = System.nanoTime();
            for (int from = 0; from < texts.size(); from += BATCH) {
                postBatch(base, token, texts, from, Math.min(texts.size(), from + BATCH));
            }
            double ingest = texts.size() / ((System.nanoTime() - t0) / 1e9);
            for (int i = 0; i < 100; i++) {
                recall(base, token, queries.get(i % queries.size()));
            }
            double[] ms = new double[queries.size()];
            for (int i = 0; i < queries.size(); i++) {
                long q = System.nanoTime();
                recall(base, token, queries.get(i));
                ms[i] = (System.nanoTime() - q) / 1e6;
            }
            return new Run(ingest, percentile(ms, 50), percentile(ms, 99));
        }
    }

    /** Per-memory and per-recall cost of each piece, on the adapters directly (no HTTP), on a 2,000-memory sample. */
    private ObjectNode breakdown(List<String> texts, List<String> queries) throws Exception {
        int sample = Math.min(2_000, texts.size());
        OnnxEmbedder embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
        String name = "bench-parts-" + System.nanoTime();
        DynamoDbMemoryStore store = new DynamoDbMemoryStore(Dynalite.client(), name);
        store.createTableIfMissing();
        Id team = new Id(TEAM);
        ObjectNode parts = JSON.createObjectNode();
        try (OpenSearchVectorIndex index = OpenSearchVectorIndex.plainHttp(
                URI.create(OpenSearchNode.url()), OpenSearchVectorIndex.Settings.localNode(name))) {
            embedder.embedDocuments(texts.subList(0, 200));
            double embedMs = 0;
            double dynamoMs = 0;
            double openSearchMs = 0;
            for (int from = 0; from < sample; from += BATCH) {
                List<String> slice = texts.subList(from, Math.min(sample, from + BATCH));
                long t = System.nanoTime();
                List<float[]> vectors = embedder.embedDocuments(slice);
                embedMs += (System.nanoTime() - t) / 1e6;
                List<Memory> memories = new ArrayList<>();
                List<VectorIndex.Entry> entries = new ArrayList<>();
                for (int i = 0; i < slice.size(); i++) {
                    Memory m = Memories.memory()
                            .id("m" + (from + i))
                            .team(team)
                            .content(slice.get(i))
                            .confidence(0.8)
                            .createdAt(Instant.now())
                            .build();
                    memories.add(m);
                    entries.add(new VectorIndex.Entry(
                            new VectorIndex.Key(team, m.id(), 1),
                            Scope.TEAM,
                            null,
                            MemoryType.FACT,
                            List.of(),
                            m.content(),
                            m.occurredAt(),
                            vectors.get(i),
                            embedder.modelId()));
                }
                t = System.nanoTime();
                store.insertAll(memories);
                dynamoMs += (System.nanoTime() - t) / 1e6;
                t = System.nanoTime();
                index.upsert(entries);
                openSearchMs += (System.nanoTime() - t) / 1e6;
            }
            parts.putObject("ingest_ms_per_memory")
                    .put("embedding", embedMs / sample)
                    .put("dynamodb", dynamoMs / sample)
                    .put("opensearch", openSearchMs / sample);

            int q = Math.min(200, queries.size());
            double[] embed = new double[q];
            double[] search = new double[q];
            double[] hydrate = new double[q];
            for (int i = 0; i < q; i++) {
                long t = System.nanoTime();
                float[] v = embedder.embedQuery(queries.get(i));
                embed[i] = (System.nanoTime() - t) / 1e6;
                t = System.nanoTime();
                List<VectorIndex.Candidate> found = index.search(new VectorIndex.Search(
                        new VectorIndex.Filter(team, new Id("bench-user"), null, Set.of(), Set.of()),
                        v,
                        embedder.modelId(),
                        queries.get(i),
                        50));
                search[i] = (System.nanoTime() - t) / 1e6;
                t = System.nanoTime();
                store.getAll(team, found.stream().map(VectorIndex.Candidate::id).toList());
                hydrate[i] = (System.nanoTime() - t) / 1e6;
            }
            parts.putObject("recall_p50_ms")
                    .put("query_embedding", percentile(embed, 50))
                    .put("opensearch_knn_plus_bm25", percentile(search, 50))
                    .put("dynamodb_hydrate_50", percentile(hydrate, 50));
        }
        return parts;
    }

    private void postBatch(String base, String token, List<String> texts, int from, int to) throws Exception {
        int created = Bench.postBatch(http, base, token, texts, from, to);
        if (created != to - from) {
            throw new IllegalStateException("batch created " + created + " of " + (to - from) + " memories");
        }
    }

    private void recall(String base, String token, String query) throws Exception {
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "/recall"))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(30))
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(
                                JSON.createObjectNode().put("query", query).put("top_k", 10))))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("recall answered " + r.statusCode() + ": " + r.body());
        }
    }

    private static double percentile(double[] values, int p) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p / 100.0 * sorted.length) - 1)];
    }

    private static void log(String format, Object... args) {
        System.out.println("[bench] " + String.format(Locale.ROOT, format, args));
    }
}
