package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.aws.DynamoDbDocumentLedger;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.aws.OpenSearchVectorIndex.DocumentIds;
import dev.cairn.aws.OpenSearchVectorIndex.Settings;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.Memories;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * OpenSearch Serverless as the AWS profile uses it — generated document ids, no refresh parameter — on the local node
 * with refresh off ({@code refresh_interval: -1} until the test asks): a write is invisible to search until then, as
 * a Serverless write is until its own interval. Replacing or deleting a memory must not depend on seeing it: with
 * the document ledger nothing of an old version is left once the indexer has converged; the same cycles without the
 * ledger (the previous search-based cleanup) are the baseline, measured in the same run and printed.
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class OpenSearchRefreshOffIT {

    private static final int CYCLES = Integer.getInteger("cairn.it.refresh-off.cycles", 200);
    private static final HashingEmbedder EMBEDDER = new HashingEmbedder();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TABLE = "cairn-refresh-off";
    private static DynamoDbMemoryStore store;

    @BeforeAll
    static void table() {
        store = new DynamoDbMemoryStore(Dynalite.client(), TABLE);
        store.createTableIfMissing();
    }

    @Test
    void deleteRightAfterCreate_andTwoQuickPatches_leaveOnlyTheNewestVersion_withoutAnyRefresh() throws Exception {
        String index = "refresh-off-" + UUID.randomUUID().toString().substring(0, 8);
        Indexer indexer = indexer(index, true);
        Id team = new Id("t" + UUID.randomUUID().toString().substring(0, 8));

        Memory gone = memory(team, "m-gone", "The release train leaves on Thursdays");
        store.insertAll(List.of(gone));
        indexer.index(List.of(gone));
        store.delete(team, gone.id(), 1);
        indexer.remove(List.of(new VectorIndex.Key(team, gone.id(), 2)));

        Memory kept = memory(team, "m-kept", "The staging database is PostgreSQL 15");
        store.insertAll(List.of(kept));
        indexer.index(List.of(kept));
        Memory v2 = Memories.from(kept)
                .content("The staging database is PostgreSQL 16")
                .version(2)
                .build();
        store.replace(v2);
        indexer.index(List.of(v2));
        Memory v3 = Memories.from(v2)
                .content("The staging database is PostgreSQL 17")
                .version(3)
                .build();
        store.replace(v3);
        indexer.index(List.of(v3));
        indexer.converge(100);

        refresh(index);
        assertThat(versionsIndexed(index, team, gone.id()))
                .as("deleted right after create")
                .isEmpty();
        assertThat(versionsIndexed(index, team, kept.id())).as("patched twice").containsExactly(3L);
    }

    @Test
    void aThousandCreatePatchDeleteCycles_leaveNoDocument_whereSearchBasedCleanupLeavesSome() throws Exception {
        long withLedger = leftAfterCycles(true);
        long baseline = leftAfterCycles(false);
        System.out.printf(
                "[OpenSearchRefreshOffIT] documents left after %d create/patch/delete cycles, refresh off:"
                        + " %d with the document ledger, %d with search-based cleanup (baseline, same run)%n",
                CYCLES, withLedger, baseline);
        assertThat(withLedger).isZero();
    }

    /** Create, patch, delete each memory, as fast as the indexer goes; then converge, refresh and count. */
    private long leftAfterCycles(boolean ledger) throws Exception {
        String index = "cycles-" + UUID.randomUUID().toString().substring(0, 8);
        Indexer indexer = indexer(index, ledger);
        Id team = new Id("c" + UUID.randomUUID().toString().substring(0, 8));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        List<Future<?>> runs = new ArrayList<>();
        for (int i = 0; i < CYCLES; i++) {
            int n = i;
            runs.add(pool.submit(() -> {
                Memory m = memory(team, "m" + n, "Cycle " + n + ": the build cache lives in bucket " + n);
                store.insertAll(List.of(m));
                indexer.index(List.of(m));
                Memory patched = Memories.from(m)
                        .content("Cycle " + n + ": the build cache moved to bucket " + (n + 1))
                        .version(2)
                        .build();
                store.replace(patched);
                indexer.index(List.of(patched));
                store.delete(team, m.id(), 2);
                indexer.remove(List.of(new VectorIndex.Key(team, m.id(), 3)));
                return null;
            }));
        }
        for (Future<?> f : runs) {
            f.get();
        }
        pool.shutdown();
        indexer.converge(500);
        refresh(index);
        return count(index, team);
    }

    private static Indexer indexer(String index, boolean ledger) throws Exception {
        // the index exists before the first write, with refresh off: nothing becomes searchable until refresh()
        Settings settings = new Settings(index, "lucene", DocumentIds.GENERATED, "false", 1, 0, 200);
        OpenSearchVectorIndex os = ledger
                ? new OpenSearchVectorIndex(
                        OpenSearchVectorIndex.plainTransport(URI.create(OpenSearchNode.url())),
                        settings,
                        new DynamoDbDocumentLedger(Dynalite.client(), TABLE))
                : OpenSearchVectorIndex.plainHttp(URI.create(OpenSearchNode.url()), settings);
        Memory seed = memory(new Id("seed"), "m-seed", "creates the index");
        os.upsert(List.of(entry(seed)));
        os.delete(List.of(new VectorIndex.Key(seed.team(), seed.id(), 2)));
        send("PUT", "/" + index + "/_settings", "{\"index\":{\"refresh_interval\":\"-1\"}}");
        refresh(index);
        return new Indexer(store, os, EMBEDDER);
    }

    private static VectorIndex.Entry entry(Memory m) {
        return new VectorIndex.Entry(
                new VectorIndex.Key(m.team(), m.id(), m.version()),
                m.scope(),
                m.user(),
                m.type(),
                m.tags(),
                m.content(),
                m.occurredAt(),
                EMBEDDER.embedDocuments(List.of(m.content())).get(0),
                EMBEDDER.modelId());
    }

    private static Memory memory(Id team, String id, String content) {
        return Memories.memory().team(team).id(id).content(content).build();
    }

    private static List<Long> versionsIndexed(String index, Id team, Id id) throws Exception {
        String body =
                "{\"size\":100,\"_source\":[\"version\"],\"query\":{\"bool\":{\"filter\":[" + "{\"term\":{\"team\":\""
                        + team.value() + "\"}},{\"term\":{\"memory_id\":\"" + id.value() + "\"}}]}}}";
        List<Long> out = new ArrayList<>();
        for (var hit : JSON.readTree(send("POST", "/" + index + "/_search", body))
                .path("hits")
                .path("hits")) {
            out.add(hit.path("_source").path("version").asLong());
        }
        return out;
    }

    private static long count(String index, Id team) throws Exception {
        String body = "{\"query\":{\"term\":{\"team\":\"" + team.value() + "\"}}}";
        return JSON.readTree(send("POST", "/" + index + "/_count", body))
                .path("count")
                .asLong();
    }

    private static void refresh(String index) throws Exception {
        send("POST", "/" + index + "/_refresh", "");
    }

    private static String send(String method, String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(
                HttpRequest.newBuilder(URI.create(OpenSearchNode.url() + path))
                        .header("Content-Type", "application/json")
                        .method(method, HttpRequest.BodyPublishers.ofString(body))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(method + " " + path + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }
}
