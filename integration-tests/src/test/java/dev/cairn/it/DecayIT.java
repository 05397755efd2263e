package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The decay job and restore through the API: archive below the threshold, idempotent reruns, restore. */
@ExtendWith(SharedServer.class)
class DecayIT {

    private static List<String> recall(String team, String query) {
        return as("alice", team)
                .body(Map.of("query", query, "top_k", 10))
                .post("/v1/teams/" + team + "/recall")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("results.memory.id");
    }

    @Test
    void aMemoryBelowTheThreshold_shouldBeArchived_leaveRecall_andComeBackOnRestore() {
        String team = "decay" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        String faint = as("alice", team)
                .body(Map.of("content", "The intern's desk is next to the window", "importance", 0.01, "scope", "team"))
                .post("/v1/teams/" + team + "/memories")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        String strong = as("alice", team)
                .body(Map.of("content", "Production deploys need two approvals", "importance", 0.9, "scope", "team"))
                .post("/v1/teams/" + team + "/memories")
                .then()
                .statusCode(201)
                .extract()
                .path("id");

        JsonPath run = as("alice", team)
                .post("/v1/teams/" + team + "/decay:run")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(run.getInt("scanned")).isEqualTo(2);
        assertThat(run.getInt("archived")).isEqualTo(1);
        assertThat(run.getString("resume_after")).isNull();
        as("alice", team)
                .get("/v1/teams/" + team + "/memories/" + faint)
                .then()
                .statusCode(200)
                .body("state", equalTo("archived"))
                .body("content", equalTo(""));
        assertThat(recall(team, "where is the intern's desk?"))
                .doesNotContain(faint)
                .contains(strong);

        // a second run the same day changes nothing
        as("alice", team)
                .post("/v1/teams/" + team + "/decay:run")
                .then()
                .statusCode(200)
                .body("archived", equalTo(0))
                .body("deleted", equalTo(0));

        as("alice", team)
                .post("/v1/teams/" + team + "/memories/" + faint + ":restore")
                .then()
                .statusCode(200)
                .body("state", equalTo("active"))
                .body("content", equalTo("The intern's desk is next to the window"))
                // the same memory shape as GET …/memories/{id}: created_at, occurred_at and evidence included
                .body("created_at", org.hamcrest.Matchers.notNullValue())
                .body("$", org.hamcrest.Matchers.hasKey("occurred_at")) // null: it was written without one
                .body("$", org.hamcrest.Matchers.hasKey("evidence"));
        assertThat(recall(team, "where is the intern's desk?")).contains(faint);
        as("alice", team)
                .post("/v1/teams/" + team + "/memories/" + faint + ":restore")
                .then()
                .statusCode(400);
        as("mallory", "elsewhere")
                .post("/v1/teams/" + team + "/decay:run")
                .then()
                .statusCode(403);
        as("mallory", "elsewhere")
                .post("/v1/teams/" + team + "/memories/" + faint + ":restore")
                .then()
                .statusCode(403);
    }

    @Test
    void aMemoryArchivedByPatch_shouldComeBackOnRestore_withoutAColdCopy() {
        String team = "decaypatch" + Long.toString(System.nanoTime() % 1_000_000_000L, 36);
        String id = as("alice", team)
                .body(Map.of("content", "The staging database is reset every Sunday night", "scope", "team"))
                .post("/v1/teams/" + team + "/memories")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        as("alice", team)
                .header("If-Match", "\"1\"")
                .body(Map.of("state", "archived"))
                .patch("/v1/teams/" + team + "/memories/" + id)
                .then()
                .statusCode(200)
                .body("state", equalTo("archived"));
        // a new user's trial got 404 "the cold copy … was not found" here: nothing had been moved to the cold tier
        as("alice", team)
                .post("/v1/teams/" + team + "/memories/" + id + ":restore")
                .then()
                .statusCode(200)
                .body("state", equalTo("active"))
                .body("content", equalTo("The staging database is reset every Sunday night"));
        assertThat(recall(team, "when is the staging database reset?")).contains(id);
    }
}
