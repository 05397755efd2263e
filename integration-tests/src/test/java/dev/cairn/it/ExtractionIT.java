package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The seed's cross-session test with the phrasings of issue 19, on the embedded default extractor: said in session
 * A as people say it ("I always prefer …, please remember that.", "Our team convention is that …"), ended, recalled in
 * session B with the evidence pointing into A. A credential is never remembered, and the answer does not echo it.
 */
@ExtendWith(SharedServer.class)
class ExtractionIT {

    private static final String TEAM = "extraction";

    private static JsonPath say(String session, String role, String text) {
        return as("alice", TEAM)
                .body(Map.of("role", role, "content", text))
                .post("/v1/teams/" + TEAM + "/sessions/" + session + "/messages")
                .then()
                .statusCode(202)
                .extract()
                .jsonPath();
    }

    private static JsonPath recall(String query) {
        return as("alice", TEAM)
                .body(Map.of("query", query, "top_k", 3))
                .post("/v1/teams/" + TEAM + "/recall")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void factsSaidAsPeopleSayThem_shouldBeRecalledInTheNextSession_withTheirEvidence() {
        String a = "a-" + System.nanoTime();
        JsonPath kotlin = say(a, "user", "I always prefer Kotlin over Java for new services, please remember that.");
        String kotlinMessage = kotlin.getString("message_id");
        // asked to be remembered: written as the message arrives
        assertThat(kotlin.getList("remembered")).hasSize(1);
        say(a, "assistant", "Noted: Kotlin for new services.");
        String errors = say(
                        a, "user", "Our team convention is that every API returns RFC 9457 problem details on errors.")
                .getString("message_id");
        say(a, "user", "Also remember that my database password is Tr0ub4dor&3.");
        say(a, "user", "Can you refactor the OrderService now?");

        JsonPath ended = as("alice", TEAM)
                .post("/v1/teams/" + TEAM + "/sessions/" + a + "/end")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(ended.getList("extracted.content"))
                .containsExactly("Our team convention is that every API returns RFC 9457 problem details on errors.");
        assertThat(ended.getList("extracted.type")).containsExactly("convention");
        assertThat(ended.getList("extracted.scope")).containsExactly("team");
        assertThat(ended.getList("extracted[0].evidence")).containsExactly(errors);
        List<Map<String, Object>> skipped = ended.getList("skipped");
        assertThat(skipped).anySatisfy(s -> {
            assertThat(s.get("reason")).isEqualTo("secret");
            assertThat((String) s.get("text")).doesNotContain("Tr0ub4dor").contains("[REDACTED");
        });
        assertThat(skipped).anySatisfy(s -> assertThat(s.get("reason")).isEqualTo("request"));
        assertThat(skipped).allSatisfy(s -> assertThat(s.get("score")).isNotNull());

        // session B
        JsonPath language = recall("which language should new services be written in?");
        assertThat(language.getString("results[0].memory.content"))
                .isEqualTo("I always prefer Kotlin over Java for new services");
        assertThat(language.getString("results[0].memory.type")).isEqualTo("preference");
        assertThat(language.getString("results[0].memory.scope")).isEqualTo("user");
        assertThat(language.getList("results[0].memory.evidence")).containsExactly(kotlinMessage);
        assertThat(language.getString("results[0].memory.source_session_id")).isEqualTo(a);
        JsonPath problems = recall("how should an API report errors?");
        assertThat(problems.getString("results[0].memory.content")).contains("RFC 9457");
        assertThat(problems.getList("results[0].memory.evidence")).containsExactly(errors);

        List<String> all = as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/memories?limit=100")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("memories.content", String.class);
        assertThat(all).noneMatch(c -> c.contains("Tr0ub4dor") || c.contains("password"));
    }

    @Test
    void aChineseSession_shouldBeExtractedTyped_withRememberRequestsAnywhere() {
        String s = "zh-" + System.nanoTime();
        JsonPath env = say(s, "user", "好的，谢谢。生产环境部署在 cn-north-1，记一下。");
        assertThat(env.getList("remembered")).hasSize(1);
        say(s, "user", "今天我在修计费的 bug。");
        String decision = say(s, "user", "评审最后选了 DynamoDB 做会话存储。").getString("message_id");

        JsonPath ended = as("alice", TEAM)
                .post("/v1/teams/" + TEAM + "/sessions/" + s + "/end")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(ended.getList("extracted.content")).containsExactly("评审最后选了 DynamoDB 做会话存储。");
        assertThat(ended.getList("extracted.type")).containsExactly("decision");
        assertThat(ended.getList("extracted[0].evidence")).containsExactly(decision);
        assertThat(ended.getList("skipped.reason")).contains("temporary");
    }
}
