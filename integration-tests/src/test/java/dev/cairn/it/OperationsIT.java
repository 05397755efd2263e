package dev.cairn.it;

import static dev.cairn.it.SharedServer.anonymous;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedServer.class)
class OperationsIT {

    @Test
    void health_shouldBeUp_withoutAToken() {
        anonymous().get("/q/health").then().statusCode(200).body("status", equalTo("UP"));
        anonymous()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("checks[0].data.embedding_model", equalTo("bge-small-en-v15-q"));
    }

    @Test
    void openapi_shouldDescribeEveryRoute() {
        anonymous()
                .accept("application/json")
                .get("/q/openapi?format=json")
                .then()
                .statusCode(200)
                .body("paths", hasKey("/v1/teams/{team}/memories"))
                .body("paths", hasKey("/v1/teams/{team}/memories:batch"))
                .body("paths", hasKey("/v1/teams/{team}/memories/{id}"))
                .body("paths", hasKey("/v1/teams/{team}/recall"))
                .body("paths.'/v1/teams/{team}/memories/{id}'", hasKey("patch"))
                .body("paths.'/v1/teams/{team}/memories/{id}'", hasKey("delete"));
    }
}
