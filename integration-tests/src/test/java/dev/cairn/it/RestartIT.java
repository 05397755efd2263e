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
            first.awaitHealth("/q/health/ready");
            token = first.token("alice", "acme");
            id = RestAssured.given()
                    .baseUri(first.baseUrl())
                    .contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token)
                    .body(Map.of("content", "The on-call rotation changes every Monday at 10:00", "scope", "team"))
                    .post("/v1/teams/acme/memories")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
        }
        try (LocalServer second = new LocalServer(data).start()) {
            second.awaitHealth("/q/health/ready");
            // the token minted before the restart still verifies: the key lives in the data directory
            RestAssured.given()
                    .baseUri(second.baseUrl())
                    .header("Authorization", "Bearer " + token)
                    .get("/v1/teams/acme/memories/{id}", id)
                    .then()
                    .statusCode(200);
            List<String> recalled = RestAssured.given()
                    .baseUri(second.baseUrl())
                    .contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token)
                    .body(Map.of("query", "when does on-call switch?"))
                    .post("/v1/teams/acme/recall")
                    .then()
                    .statusCode(200)
                    .extract()
                    .path("results.memory.id");
            assertThat(recalled).containsExactly(id);
        }
    }

    @Test
    void aServerWithAnotherEmbeddingModel_shouldRefuseToMixVectors_withAClearError() throws Exception {
        Path data = Files.createTempDirectory(LocalServer.workDir(), "model-");
        String token;
        try (LocalServer english = new LocalServer(data).start()) {
            english.awaitHealth("/q/health/ready");
            token = english.token("alice", "acme");
            RestAssured.given()
                    .baseUri(english.baseUrl())
                    .contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token)
                    .body(Map.of("content", "We deploy on Fridays"))
                    .post("/v1/teams/acme/memories")
                    .then()
                    .statusCode(201);
        }
        try (LocalServer chinese = new LocalServer(data).start("-Dcairn.embedding.model=bge-small-zh-v15-q")) {
            RestAssured.given()
                    .baseUri(chinese.baseUrl())
                    .get("/q/health/ready")
                    .then()
                    .statusCode(503)
                    .body("checks[0].data.index_model", org.hamcrest.Matchers.equalTo("bge-small-en-v15-q"));
            RestAssured.given()
                    .baseUri(chinese.baseUrl())
                    .contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token)
                    .body(Map.of("query", "when do we deploy?"))
                    .post("/v1/teams/acme/recall")
                    .then()
                    .statusCode(409)
                    .body(
                            "detail",
                            org.hamcrest.Matchers.allOf(
                                    org.hamcrest.Matchers.containsString("bge-small-en-v15-q"),
                                    org.hamcrest.Matchers.containsString("bge-small-zh-v15-q")));
            RestAssured.given()
                    .baseUri(chinese.baseUrl())
                    .contentType(ContentType.JSON)
                    .header("Authorization", "Bearer " + token)
                    .body(Map.of("content", "我们周五部署"))
                    .post("/v1/teams/acme/memories")
                    .then()
                    .statusCode(409);
        }
    }
}
