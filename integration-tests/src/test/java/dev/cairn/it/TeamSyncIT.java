package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasSize;

import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Team sync through the API: deltas, 409s in API.md's shape, the change feed, recall of synced facts, safety. */
@ExtendWith(SharedServer.class)
class TeamSyncIT {

    private static String team() {
        return "ts" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
    }

    /** An op in the seed's shape, without the optional {@code version} (which would be base_version + 1). */
    private static Map<String, Object> op(String op, String fact, String content) {
        Map<String, Object> m = new HashMap<>(Map.of("op", op, "fact_id", fact));
        if (content != null) {
            m.put("content", content);
            m.put("type", "convention");
        }
        return m;
    }

    private static Map<String, Object> delta(String client, long base, String key, List<Map<String, Object>> ops) {
        return Map.of("client_id", client, "base_version", base, "idempotency_key", key, "delta", ops);
    }

    @Test
    void aDelta_shouldBeApplied_recalledAsATeamMemory_pulledFromTheFeed_andAConflictShouldBe409() {
        String team = team();
        as("alice", team)
                .body(delta(
                        "laptop",
                        0,
                        "k1",
                        List.of(
                                op("upsert", "merge-style", "Pull requests are squash-merged after one approval"),
                                op("upsert", "db", "The billing database is PostgreSQL 17"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                .body("status", equalTo("applied"))
                .body("version", equalTo(1));
        // the same request again: the first answer, nothing applied twice
        as("alice", team)
                .body(delta(
                        "laptop",
                        0,
                        "k1",
                        List.of(
                                op("upsert", "merge-style", "Pull requests are squash-merged after one approval"),
                                op("upsert", "db", "The billing database is PostgreSQL 17"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                .body("version", equalTo(1));
        // the same key with another delta: 422 saying so, nothing applied
        as("alice", team)
                .body(delta("laptop", 0, "k1", List.of(op("upsert", "merge-style", "again"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(422)
                .contentType(containsString("application/problem+json"))
                .body("detail", containsString("already used by client 'laptop' for a different delta"));

        JsonPath hits = as("bob", team)
                .body(Map.of("query", "how are pull requests merged?", "scope", "team", "top_k", 3))
                .post("/v1/teams/" + team + "/recall")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(hits.getString("results[0].memory.content"))
                .isEqualTo("Pull requests are squash-merged after one approval");
        assertThat(hits.getString("results[0].memory.scope")).isEqualTo("team");

        // bob changes the database fact from a stale view: 409, naming the fact, with both sides
        JsonPath conflict = as("bob", team)
                .body(delta("desktop", 0, "b1", List.of(op("upsert", "db", "The billing database is MySQL 8"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(409)
                .contentType(containsString("application/problem+json"))
                .body("status", equalTo("conflict"))
                .body("current_version", equalTo(1))
                .extract()
                .jsonPath();
        assertThat(conflict.getString("conflicts[0].fact_id")).isEqualTo("db");
        assertThat(conflict.getString("conflicts[0].current.content"))
                .isEqualTo("The billing database is PostgreSQL 17");
        assertThat(conflict.getString("conflicts[0].proposed.content")).isEqualTo("The billing database is MySQL 8");

        // bob pulls, then deletes the fact based on its version: recall no longer finds it
        JsonPath feed = as("bob", team)
                .queryParam("since", 0)
                .get("/v1/teams/" + team + "/changes")
                .then()
                .statusCode(200)
                .body("version", equalTo(1))
                .body("changes", hasSize(1))
                .extract()
                .jsonPath();
        assertThat(feed.getList("changes[0].ops.fact_id")).containsExactly("merge-style", "db");
        assertThat(feed.getString("changes[0].client_id")).isEqualTo("laptop");
        // the token's user, beside the name the sender chose for itself
        assertThat(feed.getString("changes[0].committed_by")).isEqualTo("alice");
        as("bob", team)
                .body(delta("desktop", 1, "b2", List.of(op("delete", "merge-style", null))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                .body("version", equalTo(2));
        List<String> after = as("bob", team)
                .body(Map.of("query", "how are pull requests merged?", "scope", "team"))
                .post("/v1/teams/" + team + "/recall")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("results.memory.content");
        assertThat(after).doesNotContain("Pull requests are squash-merged after one approval");

        as("alice", team)
                .post("/v1/teams/" + team + "/sync:rebuild")
                .then()
                .statusCode(200)
                .body("facts", equalTo(2));
    }

    /** seeds/003 step 4's request, byte for byte, against a team at version 12 whose f1 was last changed at 1. */
    private static final String SEED_REQUEST = """
            {
              "team_id": "team_abc",
              "client_id": "user_1",
              "base_version": 12,
              "delta": [
                { "op": "upsert", "fact_id": "f1", "version": 13, "content": "..." },
                { "op": "delete", "fact_id": "f2", "version": 13 }
              ]
            }""";

    @Test
    void theSeedsExampleRequest_atVersion12_shouldApplyAs13_andSentAgainChangeNothing() {
        String team = "team_abc";
        for (int v = 1; v <= 12; v++) {
            as("alice", team)
                    .body(Map.of(
                            "client_id",
                            "seeder",
                            "base_version",
                            v - 1,
                            "delta",
                            List.of(op("upsert", v == 1 ? "f1" : "other-" + v, "Team fact number " + v))))
                    .post("/v1/teams/" + team + "/sync")
                    .then()
                    .statusCode(200)
                    .body("version", equalTo(v));
        }
        as("user_1", team)
                .body(SEED_REQUEST)
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                .body("status", equalTo("applied"))
                .body("version", equalTo(13))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("rebased_from")));
        as("user_1", team)
                .body(SEED_REQUEST)
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                .body("version", equalTo(13));
        JsonPath feed = as("alice", team)
                .queryParam("since", 12)
                .get("/v1/teams/" + team + "/changes")
                .then()
                .statusCode(200)
                .body("version", equalTo(13))
                .body("changes", hasSize(1))
                .extract()
                .jsonPath();
        // the unknown fact's delete changed nothing; f1 got version 13
        assertThat(feed.getList("changes[0].ops.fact_id")).containsExactly("f1");
        assertThat(feed.getInt("changes[0].ops[0].version")).isEqualTo(13);
    }

    @Test
    void aStaleBaseWithUntouchedFacts_shouldBeRebased_andSaySo() {
        String team = team();
        as("alice", team)
                .body(Map.of(
                        "client_id", "a", "base_version", 0, "delta", List.of(op("upsert", "ci", "CI on Buildkite"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200);
        as("bob", team)
                .body(Map.of(
                        "client_id",
                        "b",
                        "base_version",
                        0,
                        "delta",
                        List.of(Map.of(
                                "op", "upsert", "fact_id", "db", "version", 1, "content", "Billing on PostgreSQL"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                .body("status", equalTo("applied"))
                .body("version", equalTo(2))
                .body("rebased_from", equalTo(0));
    }

    @Test
    void aSyncedFactsMemory_shouldRefusePatchAndDeleteWith409PointingToSync() {
        String team = team();
        as("alice", team)
                .body(Map.of(
                        "client_id",
                        "a",
                        "base_version",
                        0,
                        "delta",
                        List.of(op("upsert", "release", "Releases are tagged vYYYY.MM.DD"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200);
        String memoryId = as("alice", team)
                .body(Map.of("query", "how are releases tagged?", "scope", "team", "top_k", 1))
                .post("/v1/teams/" + team + "/recall")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("results[0].memory.id");
        io.restassured.response.Response got = as("alice", team).get("/v1/teams/" + team + "/memories/" + memoryId);
        got.then().statusCode(200);
        as("alice", team)
                .header("If-Match", got.header("ETag"))
                .body(Map.of("content", "Releases are tagged by date"))
                .patch("/v1/teams/" + team + "/memories/" + memoryId)
                .then()
                .statusCode(409)
                .contentType(containsString("application/problem+json"))
                .body("detail", containsString("POST /v1/teams/" + team + "/sync"));
        as("alice", team)
                .delete("/v1/teams/" + team + "/memories/" + memoryId)
                .then()
                .statusCode(409);
        as("alice", team)
                .get("/v1/teams/" + team + "/memories/" + memoryId)
                .then()
                .statusCode(200)
                .body("content", equalTo("Releases are tagged vYYYY.MM.DD"));
    }

    @Test
    void theFeed_shouldPageWithNextSince() {
        String team = team();
        for (int i = 0; i < 5; i++) {
            as("alice", team)
                    .body(delta("c", i, "p" + i, List.of(op("upsert", "f" + i, "Fact number " + i))))
                    .post("/v1/teams/" + team + "/sync")
                    .then()
                    .statusCode(200);
        }
        List<Integer> versions = new ArrayList<>();
        Object since = 0;
        while (since != null) {
            JsonPath page = as("alice", team)
                    .queryParam("since", since)
                    .queryParam("limit", 2)
                    .get("/v1/teams/" + team + "/changes")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            versions.addAll(page.getList("changes.version", Integer.class));
            since = page.get("next_since");
        }
        assertThat(versions).containsExactly(1, 2, 3, 4, 5);
    }

    @Test
    void onlyMembers_shouldSyncOrReadChanges_andSecretsFollowTheTeamPolicy() {
        String team = team();
        as("mallory", "elsewhere")
                .body(delta("c", 0, "x", List.of(op("upsert", "f", "hi"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(403);
        as("mallory", "elsewhere").get("/v1/teams/" + team + "/changes").then().statusCode(403);
        // the default policy redacts: the fact is stored without the secret
        as("alice", team)
                .body(delta(
                        "c",
                        0,
                        "s1",
                        List.of(op("upsert", "deploy", "Deploy with ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                // the answer says what was replaced, where, and never the secret itself
                .body("redactions[0].op", equalTo(0))
                .body("redactions[0].fact_id", equalTo("deploy"))
                .body("redactions[0].findings[0].rule_id", equalTo("github-pat"))
                .body("redactions[0].findings[0].start", equalTo(12))
                .body(org.hamcrest.Matchers.not(containsString("ghp_R8kLm2")));
        String content = as("alice", team)
                .get("/v1/teams/" + team + "/changes")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getString("changes[0].ops[0].content");
        assertThat(content).contains("[REDACTED:").doesNotContain("ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI");
        // the strict team rejects (LocalServer sets cairn.secrets.team-policy.strict=reject)
        as("alice", "strict")
                .body(delta(
                        "c",
                        0,
                        "s2",
                        List.of(op("upsert", "deploy", "Deploy with ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI"))))
                .post("/v1/teams/strict/sync")
                .then()
                .statusCode(422)
                .body(org.hamcrest.Matchers.not(containsString("ghp_R8kLm2")));
    }

    @Test
    void aDeltaOver500Ops_shouldGet413_andNothingIsCommitted() {
        String team = team();
        List<Map<String, Object>> ops = new ArrayList<>();
        for (int i = 0; i < 501; i++) {
            ops.add(op("upsert", "f" + i, "x"));
        }
        as("alice", team)
                .body(delta("c", 0, "big", ops))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(413)
                // a trial saw this said in bytes: the limit is a count of ops
                .body("detail", containsString("501 ops"))
                .body("detail", containsString("500 ops"));
        as("alice", team)
                .get("/v1/teams/" + team + "/changes")
                .then()
                .statusCode(200)
                .body("changes", hasSize(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            fact id outside the grammar | {"client_id":"c","base_version":0,"idempotency_key":"k","delta":[{"op":"upsert","fact_id":"../x","version":1,"content":"a"}]} | delta[0].fact_id
            unknown op                  | {"client_id":"c","base_version":0,"idempotency_key":"k","delta":[{"op":"merge","fact_id":"f","version":1,"content":"a"}]} | delta[0].op
            version not base + 1        | {"client_id":"c","base_version":0,"idempotency_key":"k","delta":[{"op":"upsert","fact_id":"f","version":0,"content":"a"}]} | delta[0].version
            team_id not the path's team | {"team_id":"other","client_id":"c","base_version":0,"delta":[{"op":"upsert","fact_id":"f","content":"a"}]} | team_id
            upsert without content      | {"client_id":"c","base_version":0,"idempotency_key":"k","delta":[{"op":"upsert","fact_id":"f","version":1}]} | delta[0].content
            negative base               | {"client_id":"c","base_version":-1,"idempotency_key":"k","delta":[{"op":"delete","fact_id":"f","version":1}]} | base_version
            bad client id               | {"client_id":"Laptop!","base_version":0,"idempotency_key":"k","delta":[{"op":"delete","fact_id":"f","version":1}]} | client_id
            idempotency key with spaces | {"client_id":"c","base_version":0,"idempotency_key":"a b","delta":[{"op":"delete","fact_id":"f"}]} | idempotency_key
            empty delta                 | {"client_id":"c","base_version":0,"idempotency_key":"k","delta":[]} | delta
            a fact twice                | {"client_id":"c","base_version":0,"idempotency_key":"k","delta":[{"op":"delete","fact_id":"f","version":1},{"op":"delete","fact_id":"f","version":1}]} | delta[1].fact_id
            """)
    void badDeltas_shouldGet400NamingTheField_andCommitNothing(String name, String body, String field) {
        String team = team();
        as("alice", team)
                .body(body)
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem(field));
        as("alice", team)
                .get("/v1/teams/" + team + "/changes")
                .then()
                .statusCode(200)
                .body("changes", hasSize(0));
    }

    @Test
    void conflicts_shouldBeListed_andResolvedUnderKeepBoth() {
        // team "keepers" runs keep_both (LocalServer: cairn.sync.team-policy.keepers=keep_both)
        String team = "keepers";
        String fact = "style-" + System.nanoTime();
        long base = as("alice", team)
                .get("/v1/teams/" + team + "/changes")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getLong("version");
        as("alice", team)
                .body(delta("a", base, fact + "-1", List.of(op("upsert", fact, "Tabs"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200);
        List<String> queued = as("bob", team)
                .body(delta("b", base, fact + "-2", List.of(op("upsert", fact, "Spaces"))))
                .post("/v1/teams/" + team + "/sync")
                .then()
                .statusCode(200)
                .body("status", equalTo("queued")) // every op in conflict: nothing applied, not "applied"
                .body("version", equalTo((int) base + 1))
                .extract()
                .jsonPath()
                .getList("queued");
        assertThat(queued).hasSize(1);
        as("alice", team)
                .get("/v1/teams/" + team + "/conflicts")
                .then()
                .statusCode(200)
                .body("conflicts.find { it.id == '" + queued.get(0) + "' }.status", equalTo("open"));
        // filtered as a replica asks: the open ones its client proposed
        as("alice", team)
                .queryParam("status", "open")
                .queryParam("client_id", "b")
                .get("/v1/teams/" + team + "/conflicts")
                .then()
                .statusCode(200)
                .body("conflicts.id", org.hamcrest.Matchers.hasItem(queued.get(0)))
                .body("conflicts.client_id", org.hamcrest.Matchers.everyItem(equalTo("b")));
        as("alice", team)
                .queryParam("status", "pending")
                .get("/v1/teams/" + team + "/conflicts")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("status"));
        as("alice", team)
                .body(Map.of("resolution", "merge", "content", "Spaces, four of them"))
                .post("/v1/teams/" + team + "/conflicts/" + queued.get(0) + ":resolve")
                .then()
                .statusCode(200)
                .body("status", equalTo("resolved"))
                .body("resolution", equalTo("merge"));
        as("alice", team)
                .body(Map.of("resolution", "sideways"))
                .post("/v1/teams/" + team + "/conflicts/" + queued.get(0) + ":resolve")
                .then()
                .statusCode(400);
        // resolved already: a conflict, not a bad request, and nothing is committed again
        as("alice", team)
                .body(Map.of("resolution", "take_proposed"))
                .post("/v1/teams/" + team + "/conflicts/" + queued.get(0) + ":resolve")
                .then()
                .statusCode(409)
                .contentType(containsString("application/problem+json"))
                .body("detail", containsString("not open"));
    }
}
