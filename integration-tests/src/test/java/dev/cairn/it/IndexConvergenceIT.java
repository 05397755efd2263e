package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The record store is the truth and the vector index is derived: an OpenSearch outage in the middle of an ingest
 * loses no acknowledged memory and leaves no old version indexed, once OpenSearch is back.
 */
class IndexConvergenceIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int MEMORIES = 240;

    @Test
    void anOpenSearchOutage_inTheMiddleOfAnIngest_losesNothing_andIndexesNoOldVersion() throws Exception {
        Path data = Files.createTempDirectory(LocalServer.workDir(), "converge-");
        try (LocalServer server = new LocalServer(data).onAwsAdapters().start()) {
            server.awaitHealth("/q/health/ready");
            String token = server.token("alice", "acme");
            RequestSpecification api = RestAssured.given()
                    .baseUri(server.baseUrl())
                    .contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token);

            // acknowledged memories and the version each was acknowledged at
            Map<String, Long> acknowledged = new ConcurrentHashMap<>();
            Map<String, String> contentOf = new ConcurrentHashMap<>();
            AtomicInteger written = new AtomicInteger();
            CountDownLatch outageWindow = new CountDownLatch(1);
            ExecutorService writer = Executors.newSingleThreadExecutor();
            Future<?> ingest = writer.submit(() -> {
                for (int i = 0; i < MEMORIES; i++) {
                    String content = "Service number " + i + " is owned by squad marker" + i;
                    Response created = RestAssured.given()
                            .spec(api)
                            .body(Map.of("content", content, "scope", "team"))
                            .post("/v1/teams/acme/memories");
                    if (created.statusCode() == 201) {
                        String id = created.path("id");
                        acknowledged.put(id, 1L);
                        contentOf.put(id, content);
                        if (i % 4 == 0) {
                            // a second version: the index must end up with this one, never the first
                            String moved = "Squad marker" + i + " handed service number " + i + " to the platform team";
                            Response patched = RestAssured.given()
                                    .spec(api)
                                    .header("If-Match", "\"1\"")
                                    .body(Map.of("content", moved))
                                    .patch("/v1/teams/acme/memories/{id}", id);
                            if (patched.statusCode() == 200) {
                                acknowledged.put(id, 2L);
                                contentOf.put(id, moved);
                            }
                        }
                    }
                    if (written.incrementAndGet() == MEMORIES / 3) {
                        outageWindow.countDown();
                    }
                }
                return null;
            });

            // WHEN OpenSearch goes away a third of the way in, and comes back a few seconds later
            assertThat(outageWindow.await(120, TimeUnit.SECONDS)).isTrue();
            OpenSearchNode.stopNode();
            int atStop = written.get();
            Thread.sleep(4_000);
            int duringOutage = written.get() - atStop;
            OpenSearchNode.startNode();
            ingest.get(300, TimeUnit.SECONDS);
            writer.shutdown();

            // THEN writes went on being acknowledged during the outage (the record store is the truth)
            assertThat(duringOutage).isPositive();
            assertThat(acknowledged).hasSize(MEMORIES);

            // AND once the background indexer has caught up, the index holds exactly the acknowledged versions
            String index = server.awsResourceName();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            Map<String, Long> indexed = indexedVersions(index);
            while (!indexed.equals(acknowledged) && System.nanoTime() < deadline) {
                Thread.sleep(500);
                indexed = indexedVersions(index);
            }
            assertThat(indexed).isEqualTo(acknowledged);

            // AND every acknowledged memory is recallable by what it says, in its latest wording
            for (Map.Entry<String, Long> e : acknowledged.entrySet()) {
                String content = contentOf.get(e.getKey());
                List<Map<String, Object>> results = RestAssured.given()
                        .spec(api)
                        .body(Map.of("query", content, "top_k", 3))
                        .post("/v1/teams/acme/recall")
                        .then()
                        .statusCode(200)
                        .extract()
                        .path("results.memory");
                assertThat(results).as("recall of '%s'", content).anySatisfy(m -> {
                    assertThat(m.get("id")).isEqualTo(e.getKey());
                    assertThat(((Number) m.get("version")).longValue()).isEqualTo(e.getValue());
                });
            }
        }
    }

    /** memory id → the version OpenSearch holds, read straight from the index. */
    private static Map<String, Long> indexedVersions(String index) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        HttpRequest search = HttpRequest.newBuilder(URI.create(OpenSearchNode.url() + "/" + index
                        + "/_search?size=10000&_source=memory_id,version&version=true"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"query\":{\"term\":{\"team\":\"acme\"}}}"))
                .build();
        HttpResponse<String> r = http.send(search, HttpResponse.BodyHandlers.ofString());
        Map<String, Long> out = new ConcurrentHashMap<>();
        if (r.statusCode() != 200) {
            return out;
        }
        for (JsonNode hit : JSON.readTree(r.body()).path("hits").path("hits")) {
            long version = hit.path("_source").path("version").asLong();
            // the document's own (external) version must agree with the field: one document per memory version
            assertThat(hit.path("_version").asLong()).isEqualTo(version);
            Long previous = out.put(hit.path("_source").path("memory_id").asText(), version);
            assertThat(previous).as("one document per memory").isNull();
        }
        return out;
    }
}
