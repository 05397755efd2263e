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
}
