package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedServer.class)
class BatchIT {

    private static final String TEAM = "batchteam";

    @Test
    void batch_shouldStoreGoodItems_andReportBadOnesInTheirSlots() {
        Map<String, Object> body = Map.of(
                "memories",
                List.of(
                        Map.of(
                                "content",
                                "Builds use Maven 3.9 with the wrapper",
                                "type",
                                "convention",
                                "scope",
                                "team"),
                        Map.of("content", ""),
                        Map.of("content", "Production runs Java 21 on arm64", "type", "environment", "scope", "team"),
                        Map.of("content", "y".repeat(40_000)),
                        Map.of("content", "ok", "tags", List.of("../etc"))));
        JsonPath r = as("alice", TEAM)
                .body(body)
                .post("/v1/teams/{t}/memories:batch", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(r.getList("results.index", Integer.class)).containsExactly(0, 1, 2, 3, 4);
        assertThat(r.getList("results.status"))
                .containsExactly("created", "rejected", "created", "rejected", "rejected");
        assertThat(r.getString("results[1].error.detail")).contains("content");
        // named as in the request, like a binding error of an item ("memories[1].context")
        assertThat(r.getString("results[1].error.errors[0].field")).isEqualTo("memories[1].content");
        assertThat(r.getString("results[4].error.errors[0].field")).startsWith("memories[4].tags[0]");
        assertThat(r.getInt("results[3].error.status")).isEqualTo(413);
        assertThat(r.getString("results[4].error.detail")).contains("tags[0]");

        List<String> stored = as("alice", TEAM)
                .get("/v1/teams/{t}/memories", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .path("memories.content");
        assertThat(stored)
                .containsExactlyInAnyOrder("Builds use Maven 3.9 with the wrapper", "Production runs Java 21 on arm64");

        List<String> recalled = as("alice", TEAM)
                .body(Map.of("query", "what Java version runs in production?", "top_k", 1))
                .post("/v1/teams/{t}/recall", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .path("results.memory.content");
        assertThat(recalled).containsExactly("Production runs Java 21 on arm64");
    }

    @Test
    void anItemThatCannotBeBound_isRejectedInItsSlot_andTheOthersAreStored() {
        String team = "batch-binding";
        // a value of the wrong type, a misspelt field, a number for an item: JSON that binds to no memory
        String body = """
                {"memories": [
                  {"content": "Releases are tagged vMAJOR.MINOR.PATCH", "type": "convention", "scope": "team"},
                  {"content": "wrong context", "context": 5},
                  {"contnt": "misspelt"},
                  7,
                  {"content": "Staging deploys at 14:00 UTC", "type": "convention", "scope": "team",
                   "importance": "high"},
                  {"content": "The on-call rota changes on Mondays", "type": "fact", "scope": "team"}
                ]}""";
        JsonPath r = as("alice", team)
                .body(body)
                .post("/v1/teams/{t}/memories:batch", team)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(r.getList("results.index", Integer.class)).containsExactly(0, 1, 2, 3, 4, 5);
        assertThat(r.getList("results.status"))
                .containsExactly("created", "rejected", "rejected", "rejected", "rejected", "created");
        assertThat(r.getString("results[1].error.detail")).isEqualTo("field 'memories[1].context' must be a string");
        assertThat(r.getString("results[1].error.errors[0].field")).isEqualTo("memories[1].context");
        assertThat(r.getString("results[2].error.detail"))
                .startsWith("unknown field 'memories[2].contnt'")
                .contains("content");
        assertThat(r.getString("results[3].error.detail"))
                .contains("memories[3]")
                .contains("an object");
        assertThat(r.getString("results[4].error.detail"))
                .contains("memories[4].importance")
                .contains("a number");
        assertThat(r.getList("results.findAll { it.error != null }.error.status", Integer.class))
                .containsExactly(400, 400, 400, 400);

        List<String> stored = as("alice", team)
                .get("/v1/teams/{t}/memories", team)
                .then()
                .statusCode(200)
                .extract()
                .path("memories.content");
        assertThat(stored)
                .containsExactlyInAnyOrder(
                        "Releases are tagged vMAJOR.MINOR.PATCH", "The on-call rota changes on Mondays");
    }
}
