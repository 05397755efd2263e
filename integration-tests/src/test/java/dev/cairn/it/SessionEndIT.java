package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Session B knows what the user told session A: ending A extracts typed facts with evidence into long-term memory,
 * through the ordinary write path; ending twice extracts nothing new; an ended session takes no more messages.
 */
@ExtendWith(SharedServer.class)
class SessionEndIT {

    private static final String TEAM = "session-end";

    private static String say(String session, String role, String text) {
        return as("alice", TEAM)
                .body(Map.of("role", role, "content", text))
                .post("/v1/teams/" + TEAM + "/sessions/" + session + "/messages")
                .then()
                .statusCode(202)
                .extract()
                .path("message_id");
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
    void whatTheUserSaidInSessionA_shouldBeRecalledInSessionB_typedAndWithEvidence() {
        String a = "a-" + System.nanoTime();
        String prefers = say(a, "user", "I prefer dark mode in every editor.");
        say(a, "assistant", "Noted, I will keep that in mind.");
        String convention = say(a, "user", "We always squash-merge pull requests.");
        say(a, "user", "Thanks!");

        JsonPath ended = as("alice", TEAM)
                .post("/v1/teams/" + TEAM + "/sessions/" + a + "/end")
                .then()
                .statusCode(200)
                .body("extracted", hasSize(2))
                .extract()
                .jsonPath();
        assertThat(ended.getList("extracted.type")).containsExactly("preference", "convention");
        assertThat(ended.getList("extracted.scope")).containsExactly("user", "team");
        assertThat(ended.getList("extracted[0].evidence")).containsExactly(prefers);
        assertThat(ended.getList("extracted[1].evidence")).containsExactly(convention);
        assertThat(ended.getList("extracted.source_session_id")).containsOnly(a);

        // ending again extracts nothing new, and the session takes no more messages
        as("alice", TEAM)
                .post("/v1/teams/" + TEAM + "/sessions/" + a + "/end")
                .then()
                .statusCode(200)
                .body("extracted", hasSize(0));
        as("alice", TEAM)
                .body(Map.of("role", "user", "content", "one more thing"))
                .post("/v1/teams/" + TEAM + "/sessions/" + a + "/messages")
                .then()
                .statusCode(409)
                .body("type", equalTo("https://cairn.dev/problems/session-ended"));

        // session B: recall finds both, typed, with evidence into A
        JsonPath theme = recall("which editor color theme does alice like?");
        assertThat(theme.getString("results[0].memory.content")).isEqualTo("I prefer dark mode in every editor.");
        assertThat(theme.getString("results[0].memory.type")).isEqualTo("preference");
        assertThat(theme.getList("results[0].memory.evidence")).containsExactly(prefers);
        JsonPath merge = recall("how do we merge pull requests?");
        assertThat(merge.getString("results[0].memory.content")).isEqualTo("We always squash-merge pull requests.");
        assertThat(merge.getString("results[0].memory.source_session_id")).isEqualTo(a);
    }

    @Test
    void anExplicitRemember_shouldBeWrittenAtOnce_andAChineseSessionEndToEnd() {
        String s = "zh-" + System.nanoTime();
        // "记住…" is a trigger of its own: the memory exists as soon as the message is accepted
        List<String> remembered = as("alice", TEAM)
                .body(Map.of("role", "user", "content", "记住：我们统一用 pnpm 管理依赖。"))
                .post("/v1/teams/" + TEAM + "/sessions/" + s + "/messages")
                .then()
                .statusCode(202)
                .extract()
                .jsonPath()
                .getList("remembered");
        assertThat(remembered).hasSize(1);
        as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/memories/" + remembered.get(0))
                .then()
                .statusCode(200)
                .body("type", equalTo("convention"))
                .body("source_session_id", equalTo(s));
        say(s, "user", "我喜欢用 Neovim 写代码。");
        say(s, "user", "好的，谢谢。");
        // at the end, what was not written yet is; the remembered fact is not written twice
        List<String> contents = as("alice", TEAM)
                .post("/v1/teams/" + TEAM + "/sessions/" + s + "/end")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("extracted.content");
        assertThat(contents).containsExactly("我喜欢用 Neovim 写代码。");
        List<String> all = as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/memories?limit=100")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("memories.content", String.class);
        assertThat(all.stream().filter(c -> c.contains("pnpm"))).hasSize(1);
    }
}
