package dev.cairn.it;

import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.testkit.Memories;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.LocalSecondaryIndex;

/**
 * Write throughput of the record store under concurrent writers on dynalite, with the table as it was (the two
 * listing orders as local secondary indexes) and as it is (global secondary indexes), in one run. Not a test: run it
 * on purpose (README, "DynamoDB at scale"). Both tables are written by the same {@link DynamoDbMemoryStore} code with
 * the same items, so the only difference is the index layout. Rounds alternate between the layouts (before, after,
 * before, …) so a change of machine load hits both. Size with {@code -Dcairn.bench.writers} (8),
 * {@code -Dcairn.bench.writes} (per writer and round, 300) and {@code -Dcairn.bench.rounds} (3 per layout).
 */
class DynamoDbWriteBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void recordStoreWrites_localIndexes_versus_globalIndexes() throws Exception {
        assumeFalse(LocalServer.awsBackend(), "runs once, in the default execution");
        int writers = Integer.getInteger("cairn.bench.writers", 8);
        int writes = Integer.getInteger("cairn.bench.writes", 300);
        int rounds = Integer.getInteger("cairn.bench.rounds", 3);
        Dynalite.ensureStarted();
        DynamoDbClient client = Dynalite.client();
        String before = "bench-lsi-" + System.nanoTime();
        String after = "bench-gsi-" + System.nanoTime();
        create(client, localIndexLayout(DynamoDbMemoryStore.tableDefinition(before)));
        create(client, DynamoDbMemoryStore.tableDefinition(after));
        DynamoDbMemoryStore lsi = new DynamoDbMemoryStore(client, before);
        DynamoDbMemoryStore gsi = new DynamoDbMemoryStore(client, after);

        run(lsi, "warm-lsi", writers, 50); // JIT, connection pool, dynalite's LevelDB
        run(gsi, "warm-gsi", writers, 50);
        List<Double> lsiRates = new ArrayList<>();
        List<Double> gsiRates = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            lsiRates.add(run(lsi, "lsi" + r, writers, writes));
            gsiRates.add(run(gsi, "gsi" + r, writers, writes));
            log(
                    "round %d: local indexes %.1f writes/s, global indexes %.1f writes/s, ratio %.3f",
                    r, lsiRates.get(r), gsiRates.get(r), gsiRates.get(r) / lsiRates.get(r));
        }
        double lsiMedian = median(lsiRates);
        double gsiMedian = median(gsiRates);
        double load = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();

        ObjectNode report = JSON.createObjectNode()
                .put("writers", writers)
                .put("writes_per_writer_and_round", writes)
                .put("rounds", rounds)
                .put("load_average_1m", load)
                .put("before_lsi_median_writes_per_s", lsiMedian)
                .put("after_gsi_median_writes_per_s", gsiMedian)
                .put("ratio_after_to_before", gsiMedian / lsiMedian);
        ArrayNode each = report.putArray("rounds_writes_per_s");
        for (int r = 0; r < rounds; r++) {
            each.addObject().put("lsi", lsiRates.get(r)).put("gsi", gsiRates.get(r));
        }
        Path out = LocalServer.workDir().resolveSibling("bench-dynamodb-writes.json");
        Files.writeString(out, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        System.out.println(JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
        log("report written to %s", out);
    }

    /** The table as it was before the GSI change: the same keys, the two listing orders as local indexes. */
    static CreateTableRequest localIndexLayout(CreateTableRequest current) {
        List<GlobalSecondaryIndex> global = new ArrayList<>();
        List<LocalSecondaryIndex> local = new ArrayList<>();
        for (GlobalSecondaryIndex g : current.globalSecondaryIndexes()) {
            if (g.indexName().startsWith("by_")) {
                local.add(LocalSecondaryIndex.builder()
                        .indexName(g.indexName())
                        .keySchema(g.keySchema())
                        .projection(g.projection())
                        .build());
            } else {
                global.add(g);
            }
        }
        if (local.size() != 2) {
            throw new IllegalStateException("expected the two listing indexes, found " + local);
        }
        return current.toBuilder()
                .globalSecondaryIndexes(global)
                .localSecondaryIndexes(local)
                .build();
    }

    private static void create(DynamoDbClient client, CreateTableRequest definition) {
        client.createTable(definition);
        client.waiter().waitUntilTableExists(b -> b.tableName(definition.tableName()));
    }

    /** {@code writers} threads, each inserting {@code writes} new memories one by one; the aggregate rate. */
    private static double run(DynamoDbMemoryStore store, String label, int writers, int writes) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            long start = System.nanoTime();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(pool.submit(() -> {
                    // ten teams, as in a shared deployment: writers spread over partitions, some share one
                    Id team = new Id("team" + (writer % 10));
                    for (int i = 0; i < writes; i++) {
                        Memory m = Memories.memory()
                                .team(team)
                                .id(label + "-" + writer + "-" + i)
                                .content("Benchmark memory " + i + " of writer " + writer
                                        + ": the staging cluster runs PostgreSQL 16 behind PgBouncer")
                                .tags("bench", "infra")
                                .importance((i % 100) / 100.0)
                                .createdAt(Instant.ofEpochMilli(1_700_000_000_000L + i))
                                .build();
                        store.insertAll(List.of(m));
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            return writers * writes / seconds;
        } finally {
            pool.shutdownNow();
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(Double::compare);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    private static void log(String format, Object... args) {
        System.out.println("[bench] " + String.format(Locale.ROOT, format, args));
    }
}
