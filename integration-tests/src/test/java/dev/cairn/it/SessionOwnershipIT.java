package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Sessions belong to their creator (issue 17.2), context snapshots never show a reader another user's memory and
 * replay faithfully for the owner (17.1), concurrent appends answer their own positions (17.13), and occurred_at is
 * bounded (17.11) — over HTTP, on the embedded stack and on the AWS adapters.
 */
@ExtendWith(SharedServer.class)
class SessionOwnershipIT {

    private static final String TEAM = "owners";

    @Test
    void aTeamSession_shouldBeCreatedExplicitly_andThenOpenToEveryMember() {
        String s = "/v1/teams/" + TEAM + "/sessions/retro";
        as("alice", TEAM).body(Map.of("visibility", "team")).put(s).then().statusCode(201);
        as("alice", TEAM)
                .body(Map.of("visibility", "team"))
                .put(s)
                .then()
                .statusCode(200)
                .body("visibility", equalTo("team"));
        as("bob", TEAM)
                .body(Map.of("role", "user", "content", "The retro is on Friday"))
                .post(s + "/messages")
                .then()
                .statusCode(202);
        as("alice", TEAM).get(s).then().statusCode(200).body("message_count", equalTo(1));
        as("alice", TEAM)
                .body(Map.of("visibility", "user"))
                .put(s)
                .then()
                .statusCode(409)
                .contentType("application/problem+json")
                .body("detail", containsString("team session"));
        as("alice", TEAM)
                .body(Map.of("visibility", "everyone"))
                .put("/v1/teams/" + TEAM + "/sessions/other")
                .then()
                .statusCode(400);
    }

    @Test
    void aSnapshotRestoredByAnotherMember_shouldNotShowThePrivateMemoryOfItsAssembler() {
        String team = "snapshots";
        String s = "/v1/teams/" + team + "/sessions/pairing";
        as("alice", team)
                .body(Map.of("content", "Alice privately prefers to be called Ally", "type", "preference"))
                .post("/v1/teams/" + team + "/memories")
                .then()
                .statusCode(201);
        as("alice", team)
                .body(Map.of("content", "The team squashes commits on merge", "scope", "team", "type", "convention"))
                .post("/v1/teams/" + team + "/memories")
                .then()
                .statusCode(201);
        as("alice", team).body(Map.of("visibility", "team")).put(s).then().statusCode(201);
        as("alice", team)
                .body(Map.of("role", "user", "content", "How do we merge?"))
                .post(s + "/messages")
                .then()
                .statusCode(202);
        JsonPath assembled = as("alice", team)
                .get(s + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(assembled.getList("memories.content", String.class))
                .contains("Alice privately prefers to be called Ally", "The team squashes commits on merge");
        int turn = assembled.getInt("turn");

        String bobSees = as("bob", team)
                .queryParam("turn", turn)
                .get(s + "/context")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(bobSees).doesNotContain("Ally").contains("squashes commits");

        JsonPath aliceSees = as("alice", team)
                .queryParam("turn", turn)
                .get(s + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(aliceSees.getList("blocks.text")).isEqualTo(assembled.getList("blocks.text"));
        assertThat(aliceSees.getList("memories.id")).isEqualTo(assembled.getList("memories.id"));
    }

    @Test
    void concurrentAppends_shouldEachGetTheirOwnMessageCount() throws Exception {
        String s = "/v1/teams/" + TEAM + "/sessions/busy";
        ExecutorService pool = Executors.newFixedThreadPool(6);
        List<Future<Integer>> answers = new ArrayList<>();
        try {
            for (int i = 0; i < 30; i++) {
                int n = i;
                answers.add(pool.submit(() -> as("carol", TEAM)
                        .body(Map.of("role", "user", "content", "Build " + n + " of Orion passed"))
                        .post(s + "/messages")
                        .then()
                        .statusCode(202)
                        .extract()
                        .<Integer>path("message_count")));
            }
            Set<Integer> counts = new HashSet<>();
            for (Future<Integer> f : answers) {
                counts.add(f.get());
            }
            assertThat(counts).hasSize(30);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anOccurredAtBefore1970OrInTheFarFuture_shouldBe400_andStoreNothing() {
        for (String t : List.of("2999-01-01T00:00:00Z", "0000-01-01T00:00:00Z")) {
            as("dave", "bounds")
                    .body(Map.of("content", "Released on " + t, "occurred_at", t))
                    .post("/v1/teams/bounds/memories")
                    .then()
                    .statusCode(400)
                    .contentType("application/problem+json")
                    .body("errors[0].field", equalTo("occurred_at"));
            as("dave", "bounds")
                    .body(Map.of("role", "user", "content", "hello", "occurred_at", t))
                    .post("/v1/teams/bounds/sessions/s1/messages")
                    .then()
                    .statusCode(400)
                    .body("errors[0].field", equalTo("occurred_at"));
        }
        // a message's occurred_at is read as a memory's is: words and numbers are refused with the same detail
        for (Object t : List.of("yesterday", "2026-12-01", 1700000000)) {
            as("dave", "bounds")
                    .body(Map.of("role", "user", "content", "hello", "occurred_at", t))
                    .post("/v1/teams/bounds/sessions/s1/messages")
                    .then()
                    .statusCode(400)
                    .body("errors[0].field", equalTo("occurred_at"))
                    .body("detail", org.hamcrest.Matchers.containsString(t instanceof String ? "RFC 3339" : "string"));
        }
        as("dave", "bounds").get("/v1/teams/bounds/memories").then().body("memories.size()", equalTo(0));
        as("dave", "bounds").get("/v1/teams/bounds/sessions/s1").then().body("message_count", equalTo(0));
    }
}
