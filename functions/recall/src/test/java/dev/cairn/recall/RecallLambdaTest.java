package dev.cairn.recall;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.cairn.http.testing.TestIssuer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The recall function as a Lambda: requests go through Quarkus' mock event server, i.e. as API Gateway HTTP API
 * events, into the same resources the local server hosts.
 */
@QuarkusTest
@QuarkusTestResource(TestIssuer.class)
class RecallLambdaTest {

    @Test
    void recall_shouldFindARememberedFact_throughApiGatewayEvents() {
        String token = TestIssuer.token("alice", "lambda");
        given().contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + token)
                .body(Map.of("content", "Our Lambdas run on arm64 with SnapStart", "scope", "team"))
                .post("/v1/teams/lambda/memories")
                .then()
                .statusCode(201)
                .body("version", equalTo(1));
        io.restassured.response.ExtractableResponse<?> answer = given().contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + token)
                .body(Map.of("query", "which CPU architecture do the functions use?", "top_k", 1))
                .post("/v1/teams/lambda/recall")
                .then()
                .statusCode(200)
                .body("results[0].memory.content", equalTo("Our Lambdas run on arm64 with SnapStart"))
                .body("model", equalTo("bge-small-en-v15-q"))
                .extract();
        // API Gateway's multi-value headers carry a comma-separated header as one value per metric: the same
        // header to an HTTP client, which joins repeated fields with commas; the embedded index adds the search's
        // own parts (search.bm25, search.knn, ...) after the four steps and the total
        assertThat(String.join(", ", answer.headers().getValues("Server-Timing")))
                .matches("embed;dur=\\d+\\.\\d\\d, search;dur=\\d+\\.\\d\\d, hydrate;dur=\\d+\\.\\d\\d, "
                        + "rank;dur=\\d+\\.\\d\\d, recall;dur=\\d+\\.\\d\\d(, search\\.[a-z0-9]+;dur=\\d+\\.\\d\\d)*")
                .contains("search.bm25;dur=", "search.knn;dur=");
    }

    @Test
    void requests_shouldBeRefused_withoutAValidTokenOrForAForeignTeam() {
        given().contentType(ContentType.JSON)
                .body(Map.of("query", "x"))
                .post("/v1/teams/lambda/recall")
                .then()
                .statusCode(401)
                .contentType(startsWith("application/problem+json"));
        given().contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + TestIssuer.token("alice", "lambda"))
                .body(Map.of("query", "x"))
                .post("/v1/teams/elsewhere/recall")
                .then()
                .statusCode(403);
    }
}
