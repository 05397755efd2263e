package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import io.restassured.path.json.JsonPath;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Consolidation before write, through the API: a fact stated again in a later session reinforces the stored memory; a
 * new value for the same subject supersedes the old memory (kept, with superseded_by and valid_to), recall answers the
 * current fact only, and {@code as_of} still finds the old one.
 */
@ExtendWith(SharedServer.class)
class ConsolidationIT {

    private static final String TEAM = "consolidation";

    private static void say(String session, String text, String at) {
        Map<String, Object> body = new HashMap<>(Map.of("role", "user", "content", text));
        if (at != null) {
            body.put("occurred_at", at);
        }
        as("alice", TEAM)
                .body(body)
                .post("/v1/teams/" + TEAM + "/sessions/" + session + "/messages")
                .then()
                .statusCode(202);
    }

    private static JsonPath end(String session) {
        return as("alice", TEAM)
                .post("/v1/teams/" + TEAM + "/sessions/" + session + "/end")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static List<String> recall(String query, String asOf) {
        Map<String, Object> body = new HashMap<>(Map.of("query", query, "top_k", 10));
        if (asOf != null) {
            body.put("as_of", asOf);
        }
        return as("alice", TEAM)
                .body(body)
                .post("/v1/teams/" + TEAM + "/recall")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("results.memory.content", String.class);
    }

    @Test
    void aContradiction_shouldSupersedeTheOldFact_recallShouldAnswerTheNewOne_andAsOfTheOldOne() {
        String a = "pg-a-" + System.nanoTime();
        say(a, "We decided to use PostgreSQL 16 for the billing database.", "2026-10-01T09:00:00Z");
        String oldId = end(a).getString("extracted[0].id");

        String b = "pg-b-" + System.nanoTime();
        say(b, "We now use PostgreSQL 17 for the billing database.", "2026-11-15T09:00:00Z");
        JsonPath ended = end(b);
        assertThat(ended.getString("extracted[0].consolidation")).isEqualTo("superseded");
        assertThat(ended.getString("extracted[0].supersedes")).isEqualTo(oldId);
        String newId = ended.getString("extracted[0].id");
        // an extracted item carries the fields GET answers for the same memory (tags, importance, created_at ...)
        Map<String, Object> extracted = ended.getMap("extracted[0]");
        Map<String, Object> got = as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/memories/" + newId)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("$");
        assertThat(extracted).containsKeys("tags", "importance", "created_at", "last_accessed_at", "valid_to");
        for (String field : List.of("id", "type", "scope", "content", "tags", "importance", "created_at", "evidence")) {
            assertThat(extracted.get(field)).as(field).isEqualTo(got.get(field));
        }

        as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/memories/" + oldId)
                .then()
                .statusCode(200)
                .body("superseded_by", equalTo(newId))
                .body("valid_to", equalTo("2026-11-15T09:00:00Z"))
                .body("content", equalTo("We decided to use PostgreSQL 16 for the billing database."));

        assertThat(recall("Which PostgreSQL version does the billing database run?", null))
                .contains("We now use PostgreSQL 17 for the billing database.")
                .doesNotContain("We decided to use PostgreSQL 16 for the billing database.");
        assertThat(recall("Which PostgreSQL version does the billing database run?", "2026-10-20T00:00:00Z"))
                .contains("We decided to use PostgreSQL 16 for the billing database.")
                .doesNotContain("We now use PostgreSQL 17 for the billing database.");
    }

    @Test
    void aRepeat_shouldReinforceTheStoredMemory_notStoreItTwice() {
        String a = "rep-a-" + System.nanoTime();
        say(a, "Our convention is to tag releases as vYYYY.MM.DD.", null);
        JsonPath first = end(a);
        String id = first.getString("extracted[0].id");
        double confidence = first.getDouble("extracted[0].confidence");

        String b = "rep-b-" + System.nanoTime();
        say(b, "Our convention is to tag releases as vYYYY.MM.DD!", null);
        JsonPath again = end(b);
        assertThat(again.getString("extracted[0].consolidation")).isEqualTo("reinforced");
        assertThat(again.getString("extracted[0].id")).isEqualTo(id);

        JsonPath stored = as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/memories/" + id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(stored.getDouble("confidence")).isGreaterThan(confidence);
        assertThat(stored.getLong("access_count")).isGreaterThanOrEqualTo(1);
        assertThat(stored.getList("evidence")).hasSize(2);
        List<String> all = as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/memories?type=convention&limit=100")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("memories.content", String.class);
        assertThat(all.stream().filter(c -> c.contains("vYYYY.MM.DD"))).hasSize(1);
    }

    @Test
    void aChineseContradiction_shouldSupersedeToo() {
        String a = "zh-a-" + System.nanoTime();
        say(a, "我们决定用 MySQL 8 做订单库。", "2026-09-01T00:00:00Z");
        String oldId = end(a).getString("extracted[0].id");
        String b = "zh-b-" + System.nanoTime();
        say(b, "我们决定改用 PostgreSQL 17 做订单库。", "2026-11-01T00:00:00Z");
        JsonPath ended = end(b);
        assertThat(ended.getString("extracted[0].consolidation")).isEqualTo("superseded");
        assertThat(ended.getString("extracted[0].supersedes")).isEqualTo(oldId);
        assertThat(recall("订单库用什么数据库？", null))
                .contains("我们决定改用 PostgreSQL 17 做订单库。")
                .doesNotContain("我们决定用 MySQL 8 做订单库。");
    }

    @Test
    void temporaryStatements_shouldBeTheSessionsTempFacts_neverMemories() {
        String s = "tmp-" + System.nanoTime();
        say(s, "For now I'm on the hotfix-2291 branch.", null);
        say(s, "I prefer the light theme today. It is sunny.", null);
        say(s, "今天先用测试库。", null);
        as("alice", TEAM)
                .get("/v1/teams/" + TEAM + "/sessions/" + s)
                .then()
                .statusCode(200)
                .body(
                        "temp_facts",
                        equalTo(List.of(
                                "今天先用测试库。",
                                "I prefer the light theme today.",
                                "For now I'm on the hotfix-2291 branch.")));
        JsonPath ended = end(s);
        assertThat(ended.getList("extracted")).isEmpty();
        assertThat(ended.getList("skipped.reason")).contains("temporary");
        as("alice", TEAM)
                .body(Map.of("query", "hotfix-2291 branch", "top_k", 10))
                .post("/v1/teams/" + TEAM + "/recall")
                .then()
                .statusCode(200)
                .body("results.findAll { it.memory.content.contains('hotfix-2291') }", hasSize(0));
    }
}
