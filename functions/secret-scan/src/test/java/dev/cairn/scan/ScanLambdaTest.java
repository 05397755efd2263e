package dev.cairn.scan;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.startsWith;

import dev.cairn.http.testing.TestIssuer;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The secret-scan function as a Lambda: API Gateway events through Quarkus' mock event server. */
@QuarkusTest
@QuarkusTestResource(TestIssuer.class)
class ScanLambdaTest {

    private static final String PAT = "ghp_" + "R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";

    @Test
    void scan_shouldReportRuleAndOffsets_andRedact_neverEchoingTheSecretInFindings() {
        String text = "部署令牌 " + PAT + " 用完即删";
        given().contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + TestIssuer.token("alice", "acme"))
                .body(Map.of("content", text))
                .post("/v1/scan")
                .then()
                .statusCode(200)
                .body("findings", hasSize(1))
                .body("findings[0].rule_id", equalTo("github-pat"))
                .body("findings[0].start", equalTo(5))
                .body("findings[0].end", equalTo(5 + PAT.length()))
                // a verification hint, never a call: GitHub's CRC32 tail, which this made-up token does not carry
                .body("findings[0].check", equalTo("crc32"))
                .body("findings[0].check_passed", equalTo(false))
                .body("findings[0].toString()", not(containsString(PAT)))
                .body("redacted", equalTo("部署令牌 [REDACTED:github-pat] 用完即删"))
                .body("rules_version", not(equalTo(null)));
    }

    @Test
    void scan_shouldNeedAToken_andRefuseAMissingText() {
        given().contentType(ContentType.JSON)
                .body(Map.of("content", "x"))
                .post("/v1/scan")
                .then()
                .statusCode(401);
        given().contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + TestIssuer.token("alice", "acme"))
                .body(Map.of())
                .post("/v1/scan")
                .then()
                .statusCode(400)
                .contentType(startsWith("application/problem+json"))
                .body("errors[0].field", equalTo("content"));
    }
}
