package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Data, the index and the signing key survive a restart of the server on the same data directory. */
class RestartIT {

    @Test
    void memories_shouldSurviveARestart() throws Exception {
        Path data = Files.createTempDirectory(LocalServer.workDir(), "restart-");
        String id;
        String token;
        try (LocalServer first = new LocalServer(data).start()) {
            token = first.token("alice", "acme");
            id = RestAssured.given().baseUri(first.baseUrl()).contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token)
                    .body(Map.of("content", "The on-call rotation changes every Monday at 10:00", "scope", "team"))
                    .post("/v1/teams/acme/memories").then().statusCode(201).extract().path("id");
        }
        try (LocalServer second = new LocalServer(data).start()) {
            // the token minted before the restart still verifies: the key lives in the data directory
            RestAssured.given().baseUri(second.baseUrl()).header("Authorization", "Bearer " + token)
                    .get("/v1/teams/acme/memories/{id}", id).then().statusCode(200);
            List<String> recalled = RestAssured.given().baseUri(second.baseUrl()).contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token).body(Map.of("query", "when does on-call switch?"))
                    .post("/v1/teams/acme/recall").then().statusCode(200).extract().path("results.memory.id");
            assertThat(recalled).containsExactly(id);
        }
    }
}
