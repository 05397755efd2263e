package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedServer.class)
class MemoryLifecycleIT {

    private static final String TEAM = "lifecycle";

    private static String create(String content, String type, String scope) {
        return as("alice", TEAM)
                .body(Map.of("content", content, "type", type, "scope", scope))
                .post("/v1/teams/{team}/memories", TEAM)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }

    private static List<String> recallContents(String query) {
        return as("alice", TEAM)
                .body(Map.of("query", query, "top_k", 3))
                .post("/v1/teams/{team}/recall", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("results.memory.content");
    }

    @Test
    void create_get_recallByParaphrase_patch_delete() {
        // GIVEN three memories of different kinds
        String postgres = create("We use PostgreSQL 16 for every new service", "decision", "team");
        create("Alice prefers dark mode and vim keybindings in every editor", "preference", "user");
        create("The CI pipeline runs on GitHub Actions with self-hosted runners", "environment", "team");

        // WHEN one is read back THEN it is exactly what was stored, with version 1 as its ETag
        as("alice", TEAM)
                .get("/v1/teams/{team}/memories/{id}", TEAM, postgres)
                .then()
                .statusCode(200)
                .header("ETag", "\"1\"")
                .body("content", equalTo("We use PostgreSQL 16 for every new service"))
                .body("type", equalTo("decision"))
                .body("scope", equalTo("team"))
                .body("user", equalTo(null))
                .body("version", equalTo(1))
                .body("state", equalTo("active"));

        // WHEN recalled with a paraphrase that shares almost no words THEN the right memory ranks first
        assertThat(recallContents("what database does the team prefer?").get(0))
                .isEqualTo("We use PostgreSQL 16 for every new service");
        assertThat(recallContents("which color theme does alice like?").get(0)).startsWith("Alice prefers dark mode");

        // WHEN patched with a stale version THEN 412 and nothing changes
        as("alice", TEAM)
                .header("If-Match", "\"7\"")
                .body(Map.of("content", "We use MySQL"))
                .patch("/v1/teams/{team}/memories/{id}", TEAM, postgres)
                .then()
                .statusCode(412)
                .contentType(startsWith("application/problem+json"))
                .body("detail", org.hamcrest.Matchers.containsString("version 1"));
        as("alice", TEAM)
                .get("/v1/teams/{team}/memories/{id}", TEAM, postgres)
                .then()
                .body("content", equalTo("We use PostgreSQL 16 for every new service"));

        // WHEN patched with the current version THEN the change is applied and the version moves on
        as("alice", TEAM)
                .header("If-Match", "\"1\"")
                .body(Map.of("content", "We use PostgreSQL 17 for every new " + "service", "confidence", 0.9))
                .patch("/v1/teams/{team}/memories/{id}", TEAM, postgres)
                .then()
                .statusCode(200)
                .header("ETag", "\"2\"")
                .body("version", equalTo(2))
                .body("confidence", equalTo(0.9f));
        assertThat(recallContents("what database does the team prefer?").get(0))
                .isEqualTo("We use PostgreSQL 17 for every new service");

        // WHEN deleted THEN it is gone from get and from recall
        as("alice", TEAM)
                .delete("/v1/teams/{team}/memories/{id}", TEAM, postgres)
                .then()
                .statusCode(204);
        as("alice", TEAM)
                .get("/v1/teams/{team}/memories/{id}", TEAM, postgres)
                .then()
                .statusCode(404);
        assertThat(recallContents("what database does the team prefer?")).noneMatch(c -> c.contains("PostgreSQL"));
    }

    @Test
    void concurrentPatches_ofTheSameVersion_shouldHaveExactlyOneWinner() throws Exception {
        String id = create("The release train leaves every second Thursday", "convention", "team");
        int clients = 6;
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(clients);
        java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.Future<Integer>> statuses = new java.util.ArrayList<>();
        for (int i = 0; i < clients; i++) {
            int n = i;
            statuses.add(pool.submit(() -> {
                go.await();
                return as("alice", TEAM)
                        .header("If-Match", "\"1\"")
                        .body(Map.of("content", "Version from client " + n))
                        .patch("/v1/teams/{team}/memories/{id}", TEAM, id)
                        .statusCode();
            }));
        }
        go.countDown();
        List<Integer> codes = new java.util.ArrayList<>();
        for (var f : statuses) {
            codes.add(f.get());
        }
        pool.shutdown();
        assertThat(codes).containsOnly(200, 412);
        assertThat(codes.stream().filter(c -> c == 200).count()).isEqualTo(1);
        as("alice", TEAM).get("/v1/teams/{team}/memories/{id}", TEAM, id).then().body("version", equalTo(2));
    }

    @Test
    void patch_shouldAnswer428_whenIfMatchIsMissing() {
        String id = create("Deploys happen on Tuesdays", "convention", "team");
        as("alice", TEAM)
                .body(Map.of("content", "Deploys happen on Wednesdays"))
                .patch("/v1/teams/{team}/memories/{id}", TEAM, id)
                .then()
                .statusCode(428);
        as("alice", TEAM)
                .get("/v1/teams/{team}/memories/{id}", TEAM, id)
                .then()
                .body("content", equalTo("Deploys happen on Tuesdays"))
                .body("version", equalTo(1));
    }

    @Test
    void recall_shouldReturnScoreParts_orderedByScore_andHonourPerRequestWeights() {
        String team = "weights";
        as("alice", team)
                .body(Map.of(
                        "content",
                        "Old fact: the office wifi password rotates monthly",
                        "occurred_at",
                        "2020-01-01T00:00:00Z",
                        "scope",
                        "team"))
                .post("/v1/teams/{t}/memories", team)
                .then()
                .statusCode(201);
        as("alice", team)
                .body(Map.of("content", "New fact: the office wifi is managed by IT", "scope", "team"))
                .post("/v1/teams/{t}/memories", team)
                .then()
                .statusCode(201);

        JsonPath freshOnly = as("alice", team)
                .body(Map.of("query", "office wifi", "weights", Map.of("alpha", 0.0, "beta", 1.0, "gamma", 0.0)))
                .post("/v1/teams/{t}/recall", team)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(freshOnly.getString("model")).isEqualTo("bge-small-en-v15-q");
        assertThat(freshOnly.getString("results[0].memory.content")).startsWith("New fact");
        assertThat(freshOnly.getDouble("results[1].freshness")).isLessThan(0.001);
        List<Float> scores = freshOnly.getList("results.score", Float.class);
        assertThat(scores).isSortedAccordingTo((a, b) -> Float.compare(b, a));
        for (int i = 0; i < scores.size(); i++) {
            assertThat(scores.get(i))
                    .isCloseTo(
                            freshOnly.getFloat("results[" + i + "].freshness"),
                            org.assertj.core.data.Offset.offset(1e-5f));
        }
    }

    @Test
    void recall_shouldSayWhereItsTimeWent_inAServerTimingHeader() {
        String team = "timing";
        as("alice", team)
                .body(Map.of("content", "The build server sits in the Frankfurt data centre", "scope", "team"))
                .post("/v1/teams/{t}/memories", team)
                .then()
                .statusCode(201);

        io.restassured.response.ExtractableResponse<?> answer = as("alice", team)
                .body(Map.of("query", "where is the build server?"))
                .post("/v1/teams/{t}/recall", team)
                .then()
                .statusCode(200)
                .extract();

        Map<String, Double> steps = new java.util.LinkedHashMap<>();
        for (String metric :
                String.join(",", answer.headers().getValues("Server-Timing")).split(",\\s*")) {
            String[] nameAndDur = metric.split(";dur=");
            steps.put(nameAndDur[0], Double.parseDouble(nameAndDur[1]));
        }
        // the four steps and the total; the Lucene index also names the parts of its search (search.bm25, ...), which
        // may run while the query is embedded, so each is bounded by the total rather than by the search step
        assertThat(steps.keySet().stream().filter(name -> !name.contains(".")))
                .containsExactly("embed", "search", "hydrate", "rank", "recall");
        assertThat(steps.keySet().stream().filter(name -> name.contains(".")))
                .allMatch(name -> name.startsWith("search."));
        steps.forEach((name, ms) -> assertThat(ms).as(name).isBetween(0.0, steps.get("recall") + 0.02));
        // the query really was embedded by the model, and the total is the sum of the steps
        assertThat(steps.get("embed")).isPositive();
        assertThat(steps.get("recall"))
                .isCloseTo(
                        steps.get("embed") + steps.get("search") + steps.get("hydrate") + steps.get("rank"),
                        org.assertj.core.data.Offset.offset(0.05))
                .isLessThanOrEqualTo(answer.jsonPath().getLong("took_ms") + 1.0);
        assertThat(answer.jsonPath().getString("results[0].memory.content")).contains("Frankfurt");
    }

    @Test
    void write_shouldSayWhereItsTimeWent_inAServerTimingHeader() {
        io.restassured.response.ExtractableResponse<?> created = as("alice", "wtiming")
                .body(Map.of("content", "The nightly backup runs at 02:00 UTC", "scope", "team"))
                .post("/v1/teams/{t}/memories", "wtiming")
                .then()
                .statusCode(201)
                .extract();

        Map<String, Double> steps = new java.util.LinkedHashMap<>();
        for (String metric :
                String.join(",", created.headers().getValues("Server-Timing")).split(",\\s*")) {
            String[] nameAndDur = metric.split(";dur=");
            steps.put(nameAndDur[0], Double.parseDouble(nameAndDur[1]));
        }
        assertThat(steps.keySet()).containsSubsequence("check", "store", "embed", "index");
        assertThat(steps.values()).allMatch(ms -> ms >= 0);
        assertThat(steps.get("embed")).isPositive();
        // the Lucene index also names the parts of its step (the OpenSearch adapter does not): never more than it
        if (steps.containsKey("index.reopen")) {
            assertThat(steps.get("index.add") + steps.get("index.reopen"))
                    .isLessThanOrEqualTo(steps.get("index") + 0.02);
        }
    }

    @Test
    void list_shouldPageThroughEveryMemory_withCursors() {
        String team = "paging";
        for (int i = 0; i < 7; i++) {
            as("alice", team)
                    .body(Map.of("content", "Paging fact number " + i, "importance", i / 10.0))
                    .post("/v1/teams/{t}/memories", team)
                    .then()
                    .statusCode(201);
        }
        java.util.Set<String> seen = new java.util.HashSet<>();
        String cursor = null;
        int pages = 0;
        do {
            var req = as("alice", team).queryParam("limit", 3).queryParam("order", "importance");
            if (cursor != null) {
                req = req.queryParam("cursor", cursor);
            }
            JsonPath page = req.get("/v1/teams/{t}/memories", team)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            List<Float> importance = page.getList("memories.importance", Float.class);
            assertThat(importance).isSortedAccordingTo((a, b) -> Float.compare(b, a));
            seen.addAll(page.getList("memories.id"));
            cursor = page.getString("next_cursor");
            pages++;
        } while (cursor != null);
        assertThat(seen).hasSize(7);
        assertThat(pages).isEqualTo(3);
    }
}
