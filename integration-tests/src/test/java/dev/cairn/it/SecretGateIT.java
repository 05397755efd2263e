package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The secret gate on the API: team "strict" rejects secrets (422, findings without the secret, nothing stored),
 * every other team redacts them ({@code [REDACTED:<rule>]} stored, {@code redactions} returned); reads never return
 * a secret; {@code POST /v1/scan} reports and redacts.
 */
@ExtendWith(SharedServer.class)
class SecretGateIT {

    private static final String PAT = "ghp_" + "R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";
    private static final String DB_URL = "postgresql://app:Zq8mN3vX7pL2@db.internal:5432/crm";

    @Test
    void aRedactingTeam_shouldStoreTheRedactedText_andSayWhatWasRedacted() {
        String content = "部署用的令牌是 " + PAT + "，数据库是 " + DB_URL;
        Response created = as("alice", "redacting")
                .body(Map.of("content", content, "scope", "team"))
                .post("/v1/teams/redacting/memories");
        created.then()
                .statusCode(201)
                .body(
                        "content",
                        equalTo("部署用的令牌是 [REDACTED:github-pat]，数据库是 postgresql://app:"
                                + "[REDACTED:uri-postgres-password]@db.internal:5432/crm"))
                .body("redactions.rule_id", equalTo(List.of("github-pat", "uri-postgres-password")))
                .body("redactions[0].start", equalTo(content.indexOf(PAT)))
                .body("redactions[0].end", equalTo(content.indexOf(PAT) + PAT.length()));
        assertThat(created.asString()).doesNotContain(PAT).doesNotContain("Zq8mN3vX7pL2");
        String id = created.path("id");

        // reads: get, list and recall never answer the secret
        String got = as("alice", "redacting")
                .get("/v1/teams/redacting/memories/{id}", id)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        String listed = as("alice", "redacting")
                .get("/v1/teams/redacting/memories")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        String recalled = as("alice", "redacting")
                .body(Map.of("query", "which token do deploys use?"))
                .post("/v1/teams/redacting/recall")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        for (String body : List.of(got, listed, recalled)) {
            assertThat(body)
                    .contains("[REDACTED:github-pat]")
                    .doesNotContain(PAT)
                    .doesNotContain("Zq8mN3vX7pL2");
        }

        // a patch that brings a secret in is redacted the same way
        as("alice", "redacting")
                .header("If-Match", "\"1\"")
                .body(Map.of("content", "my password is Hx7Lm2Qp9zz"))
                .patch("/v1/teams/redacting/memories/{id}", id)
                .then()
                .statusCode(200)
                .body("content", equalTo("my password is [REDACTED:prose-password-en]"))
                .body("redactions[0].rule_id", equalTo("prose-password-en"));

        // findings are counted by rule and outcome, never with the secret
        String metrics = SharedServer.anonymous()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(metrics)
                .containsPattern("cairn_secret_findings_total\\{[^}]*rule=\"github-pat\"[^}]*\\} [1-9]")
                .doesNotContain(PAT)
                .doesNotContain("Zq8mN3vX7pL2");
    }

    /** A pasted token alone holds nothing to remember: stored redacted it would come back from every recall. */
    @Test
    void aRedactingTeam_shouldRefuseAContentThatIsNothingButASecret_andStoreNothing() {
        String team = "redacting-bare";
        Response r = as("alice", team)
                .body(Map.of("content", "  " + PAT + "\n", "scope", "team"))
                .post("/v1/teams/{t}/memories", team);
        r.then()
                .statusCode(422)
                .contentType(startsWith("application/problem+json"))
                .body("findings[0].rule_id", equalTo("github-pat"))
                .body("detail", org.hamcrest.Matchers.containsString("nothing else would be left to remember"));
        assertThat(r.asString()).doesNotContain(PAT);
        as("alice", team)
                .get("/v1/teams/{t}/memories", team)
                .then()
                .statusCode(200)
                .body("memories", org.hamcrest.Matchers.empty());
    }

    @Test
    void aRejectingTeam_shouldGet422WithFindings_andNothingStored() {
        Response r = as("alice", "strict")
                .body(Map.of("content", "use " + PAT + " for the release"))
                .post("/v1/teams/strict/memories");
        r.then()
                .statusCode(422)
                .contentType(startsWith("application/problem+json"))
                .body("type", equalTo("https://cairn.dev/problems/secret-rejected"))
                .body("findings[0].rule_id", equalTo("github-pat"))
                .body("findings[0].start", equalTo(4))
                .body("findings[0].end", equalTo(4 + PAT.length()));
        assertThat(r.asString()).doesNotContain(PAT);

        // in a batch, the item with a secret is refused in its slot and the clean one is stored
        Response batch = as("alice", "strict")
                .body(Map.of(
                        "memories",
                        List.of(
                                Map.of("content", "The release train leaves on Thursdays", "scope", "team"),
                                Map.of("content", "DATABASE_URL=" + DB_URL, "scope", "team"))))
                .post("/v1/teams/strict/memories:batch");
        batch.then()
                .statusCode(200)
                .body("results[0].status", equalTo("created"))
                .body("results[1].status", equalTo("rejected"))
                .body("results[1].error.status", equalTo(422))
                .body("results[1].error.findings[0].rule_id", equalTo("uri-postgres-password"));
        assertThat(batch.asString()).doesNotContain("Zq8mN3vX7pL2");
        List<String> stored = as("alice", "strict")
                .get("/v1/teams/strict/memories")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("memories.content");
        assertThat(stored).containsExactly("The release train leaves on Thursdays");
    }

    @Test
    void scan_shouldReportAndRedact_onTheLocalServer() {
        as("alice", "scanning")
                .body(Map.of("content", "sshpass -p Hx7Lm2Qp9 ssh deploy@10.0.0.5"))
                .post("/v1/scan")
                .then()
                .statusCode(200)
                .body("findings[0].rule_id", equalTo("sshpass"))
                .body("redacted", equalTo("sshpass -p [REDACTED:sshpass] ssh deploy@10.0.0.5"));
    }
}
