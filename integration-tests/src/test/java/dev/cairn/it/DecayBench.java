package dev.cairn.it;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.bench.Synthetic;
import dev.cairn.embedded.FileColdStore;
import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.DecayPolicy;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.DecayContract;
import dev.cairn.model.port.Embedder;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * The decay benchmark (not a test: run it on purpose, see the README's bench section). In one run, on dynalite (with
 * an OpenSearch node for index removals): a plain paginated DynamoDB {@code Scan} of the table — the floor for reading
 * every memory — then the decay job over the same memories twice: the first run archives the faded ones (cold copy,
 * stub, index removal), the second finds nothing to do (every memory read and judged). Throughput in memories per
 * second and each run's ratio to the scan. Size with {@code -Dcairn.bench.memories} (default 100,000).
 *
 * <p>Cold copies go to files ({@link FileColdStore}), not S3Mock: S3Mock rewrites a bucket's whole key list on every
 * PUT under one lock, so tens of thousands of archivals measure its quadratic bookkeeping (its JVM spent the run in
 * garbage collection), not the job. {@code DynamoDbDecayIT} covers S3 behaviour at 10,000 memories.
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class DecayBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE = "cairn-decay-bench";

    @Test
    void decayJob_versus_plainScan() throws Exception {
        assumeFalse(LocalServer.awsBackend(), "runs once, in the default execution");
        int n = Integer.getInteger("cairn.bench.memories", 100_000);
        DynamoDbMemoryStore store = new DynamoDbMemoryStore(Dynalite.client(), TABLE);
        store.createTableIfMissing();
        FileColdStore cold = new FileColdStore(Files.createTempDirectory(LocalServer.workDir(), "decay-bench-cold"));
        OpenSearchVectorIndex index = OpenSearchVectorIndex.plainHttp(
                URI.create(OpenSearchNode.url()),
                new OpenSearchVectorIndex.Settings(
                        TABLE, "lucene", OpenSearchVectorIndex.DocumentIds.CUSTOM, "false", 1, 0, 200));
        // archiving never embeds (stubs leave the index), so the job's indexer needs no model
        Indexer indexer = new Indexer(store, index, new NoEmbeddings());

        Id team = new Id("bench");
        Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        List<String> texts = Synthetic.memories(Math.min(n, 20_000), 42);
        List<Memory> all = DecayContract.fadingMemories(team, n, now, texts);
        long t0 = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> loads = DecayContract.insertInParallel(store, all, pool);
        for (Future<?> f : loads) {
            f.get();
        }
        pool.shutdown();
        log("loaded %,d memories in %.1f s", n, (System.nanoTime() - t0) / 1e9);

        // the floor: read every item of the table once, as a paginated Scan does
        long scanStart = System.nanoTime();
        long items = 0;
        Map<String, AttributeValue> startKey = null;
        do {
            Map<String, AttributeValue> from = startKey;
            ScanResponse r = Dynalite.client()
                    .scan(b -> b.tableName(TABLE).exclusiveStartKey(from).consistentRead(true));
            items += r.count();
            startKey = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (startKey != null);
        double scanSeconds = (System.nanoTime() - scanStart) / 1e9;
        log("plain scan: %,d items in %.1f s", items, scanSeconds);

        // as the decay function is wired: 8 memories of a page decided side by side
        ExecutorService decayPool = Executors.newFixedThreadPool(8);
        DecayJob job = new DecayJob(
                store, cold, indexer, DecayPolicy.defaults(), Clock.fixed(now, ZoneOffset.UTC), 200, decayPool);
        long firstStart = System.nanoTime();
        DecayJob.Progress first = job.run(team, null, () -> false);
        double firstSeconds = (System.nanoTime() - firstStart) / 1e9;
        log("decay run 1: scanned %,d, archived %,d in %.1f s", first.scanned(), first.archived(), firstSeconds);
        long secondStart = System.nanoTime();
        DecayJob.Progress second = job.run(team, null, () -> false);
        double secondSeconds = (System.nanoTime() - secondStart) / 1e9;
        log("decay run 2: scanned %,d, archived %,d in %.1f s", second.scanned(), second.archived(), secondSeconds);

        decayPool.shutdown();
        double scanRate = items / scanSeconds;
        ObjectNode report = JSON.createObjectNode().put("memories", n).put("table_items", items);
        report.putObject("plain_scan").put("seconds", scanSeconds).put("items_per_s", scanRate);
        report.putObject("decay_first_run")
                .put("seconds", firstSeconds)
                .put("archived", first.archived())
                .put("memories_per_s", first.scanned() / firstSeconds)
                .put("ratio_to_scan", first.scanned() / firstSeconds / scanRate);
        report.putObject("decay_second_run")
                .put("seconds", secondSeconds)
                .put("archived", second.archived())
                .put("memories_per_s", second.scanned() / secondSeconds)
                .put("ratio_to_scan", second.scanned() / secondSeconds / scanRate);
        Path out = Path.of("target", "decay-bench.json");
        Files.writeString(out, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        log("report written to %s", out.toAbsolutePath());
    }

    private static void log(String format, Object... args) {
        System.out.println("[decay-bench] " + String.format(Locale.ROOT, format, args));
    }

    /** The job only removes archived memories from the index; asked to embed, it would be a bug in the bench. */
    private static final class NoEmbeddings implements Embedder {
        @Override
        public String modelId() {
            return "none";
        }

        @Override
        public int dimensions() {
            return 384;
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            throw new IllegalStateException("the decay job must not embed");
        }

        @Override
        public float[] embedQuery(String query) {
            throw new IllegalStateException("the decay job must not embed");
        }
    }
}
