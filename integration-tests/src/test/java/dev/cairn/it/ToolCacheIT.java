package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.path.json.JsonPath;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The tool-result cache through the API: one key per JSON value, TTL, validators, prefix invalidation, caps. */
@ExtendWith(SharedServer.class)
class ToolCacheIT {

    private static final String TEAM = "tool-cache";

    private static String base(String session) {
        return "/v1/teams/" + TEAM + "/sessions/" + session + "/tool-cache";
    }

    private static JsonPath put(String session, String body) {
        return as("alice", TEAM)
                .body(body)
                .put(base(session))
                .then()
                .statusCode(201)
                .extract()
                .jsonPath();
    }

    private static JsonPath lookup(String session, String body) {
        return as("alice", TEAM)
                .body(body)
                .post(base(session) + ":lookup")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void keyOrderNumberSpellingAndEscapes_shouldGiveOneKey_andAHitReturnsTheResultAsStored() {
        String s = "canon-" + System.nanoTime();
        JsonPath stored = put(
                s,
                "{\"tool\":\"read_file\",\"params\":{\"path\":\"caf\\u00e9.md\",\"lines\":[1,2.0],"
                        + "\"opts\":{\"b\":true,\"a\":null}},\"result\":{\"text\":\"# Café\",\"size\":1200}}");
        assertThat(stored.getInt("bytes")).isPositive();
        JsonPath hit = lookup(
                s,
                "{\"tool\":\"read_file\",\"params\":{\"opts\":{\"a\":null,\"b\":true},"
                        + "\"lines\":[1.0,2e0],\"path\":\"café.md\"}}");
        assertThat(hit.getBoolean("hit")).isTrue();
        assertThat(hit.getString("result.text")).isEqualTo("# Café");
        assertThat(hit.getInt("result.size")).isEqualTo(1200);
        assertThat(hit.getLong("age_seconds")).isBetween(0L, 5L);
        JsonPath other = lookup(
                s,
                "{\"tool\":\"read_file\",\"params\":{\"path\":\"cafe.md\",\"lines\":[1,2],"
                        + "\"opts\":{\"a\":null,\"b\":true}}}");
        assertThat(other.getBoolean("hit")).isFalse();
        assertThat(other.getString("reason")).isEqualTo("miss");
    }

    @Test
    void anEntryPastItsTtl_shouldBeExpired() throws InterruptedException {
        String s = "ttl-" + System.nanoTime();
        put(s, "{\"tool\":\"web_search\",\"params\":{\"q\":\"quarkus lambda\"},\"result\":[\"a\"],\"ttl_seconds\":1}");
        assertThat(lookup(s, "{\"tool\":\"web_search\",\"params\":{\"q\":\"quarkus lambda\"}}")
                        .getBoolean("hit"))
                .isTrue();
        Thread.sleep(1300);
        JsonPath late = lookup(s, "{\"tool\":\"web_search\",\"params\":{\"q\":\"quarkus lambda\"}}");
        assertThat(late.getBoolean("hit")).isFalse();
        assertThat(late.getString("reason")).isEqualTo("expired");
    }

    @Test
    void aNewerValidator_shouldMakeTheEntryStale_andDropIt() {
        String s = "val-" + System.nanoTime();
        put(
                s,
                "{\"tool\":\"read_file\",\"params\":{\"path\":\"a.txt\"},\"result\":\"v1\","
                        + "\"validator\":{\"kind\":\"mtime\",\"value\":\"2026-11-30T10:00:00Z\"}}");
        assertThat(lookup(
                                s,
                                "{\"tool\":\"read_file\",\"params\":{\"path\":\"a.txt\"},"
                                        + "\"validator\":{\"kind\":\"mtime\",\"value\":\"2026-11-30T10:00:00Z\"}}")
                        .getBoolean("hit"))
                .isTrue();
        JsonPath stale = lookup(
                s,
                "{\"tool\":\"read_file\",\"params\":{\"path\":\"a.txt\"},"
                        + "\"validator\":{\"kind\":\"mtime\",\"value\":\"2026-11-30T11:00:00Z\"}}");
        assertThat(stale.getString("reason")).isEqualTo("stale");
        // dropped: even without a validator it is gone now
        assertThat(lookup(s, "{\"tool\":\"read_file\",\"params\":{\"path\":\"a.txt\"}}")
                        .getString("reason"))
                .isEqualTo("miss");
    }

    @Test
    void invalidationByToolPrefix_shouldRemoveOnlyThoseTools_andStatsShouldCountEverything() {
        String s = "prefix-" + System.nanoTime();
        put(s, "{\"tool\":\"fs.read_file\",\"params\":{\"p\":1},\"result\":\"one\"}");
        put(s, "{\"tool\":\"fs.list_directory\",\"params\":{\"p\":1},\"result\":\"two\"}");
        put(s, "{\"tool\":\"web_search\",\"params\":{\"q\":1},\"result\":\"three\"}");
        lookup(s, "{\"tool\":\"fs.read_file\",\"params\":{\"p\":1}}");
        lookup(s, "{\"tool\":\"fs.read_file\",\"params\":{\"p\":2}}");
        as("alice", TEAM)
                .delete(base(s) + "?tool_prefix=fs.")
                .then()
                .statusCode(200)
                .body("invalidated", equalTo(2));
        assertThat(lookup(s, "{\"tool\":\"fs.read_file\",\"params\":{\"p\":1}}").getBoolean("hit"))
                .isFalse();
        assertThat(lookup(s, "{\"tool\":\"web_search\",\"params\":{\"q\":1}}").getBoolean("hit"))
                .isTrue();
        JsonPath stats = as("alice", TEAM)
                .get(base(s) + "/stats")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(stats.getInt("entries")).isEqualTo(1);
        assertThat(stats.getInt("bytes")).isEqualTo("\"three\"".length());
        assertThat(stats.getInt("hits")).isEqualTo(2);
        assertThat(stats.getInt("misses")).isEqualTo(2);
    }

    @Test
    void aResultOverTheEntryCap_shouldGet413_andASecretInAResult422_andNeitherIsStored() {
        String s = "caps-" + System.nanoTime();
        String big = "x".repeat(2 * 1024 * 1024); // over 20 % of the default 8 MiB session cap
        as("alice", TEAM)
                .body(Map.of("tool", "read_file", "params", Map.of("p", "big"), "result", big))
                .put(base(s))
                .then()
                .statusCode(413)
                .body("detail", containsString("result"));
        as("alice", TEAM)
                .body(Map.of(
                        "tool",
                        "read_file",
                        "params",
                        Map.of("p", ".env"),
                        "result",
                        Map.of("lines", java.util.List.of("GITHUB_TOKEN=ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI\n"))))
                .put(base(s))
                .then()
                .statusCode(422)
                .body("findings[0].rule_id", containsString("github"))
                // the team has the default policy (redact): the detail says the cache refuses whatever the policy
                .body("detail", containsString("the tool cache refuses secrets whatever the team's policy"))
                .body(org.hamcrest.Matchers.not(containsString("ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI")));
        as("alice", TEAM).get(base(s) + "/stats").then().statusCode(200).body("entries", equalTo(0));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            params not an object  | {"tool":"read_file","params":[1,2],"result":"r"}                         | params
            params missing        | {"tool":"read_file","result":"r"}                                         | params
            tool outside grammar  | {"tool":"../etc/passwd","params":{},"result":"r"}                          | tool
            tool empty            | {"tool":"","params":{},"result":"r"}                                       | tool
            negative ttl          | {"tool":"read_file","params":{},"result":"r","ttl_seconds":-5}             | ttl_seconds
            ttl beyond a day      | {"tool":"read_file","params":{},"result":"r","ttl_seconds":999999}         | ttl_seconds
            unknown validator     | {"tool":"read_file","params":{},"result":"r","validator":{"kind":"crc","value":"1"}} | validator.kind
            empty validator value | {"tool":"read_file","params":{},"result":"r","validator":{"kind":"etag","value":""}}  | validator.value
            result missing        | {"tool":"read_file","params":{}}                                           | result
            """)
    void badPuts_shouldGet400NamingTheField_andStoreNothing(String name, String body, String field) {
        String s = "bad-" + System.nanoTime();
        as("alice", TEAM)
                .body(body)
                .put(base(s))
                .then()
                .statusCode(400)
                .body("errors.field", org.hamcrest.Matchers.hasItem(field));
        as("alice", TEAM).get(base(s) + "/stats").then().statusCode(200).body("entries", equalTo(0));
    }

    @Test
    void anotherTeam_shouldNotReachTheCache() {
        String s = "iso-" + System.nanoTime();
        put(s, "{\"tool\":\"read_file\",\"params\":{\"p\":1},\"result\":\"mine\"}");
        as("mallory", "other-team")
                .body("{\"tool\":\"read_file\",\"params\":{\"p\":1}}")
                .post(base(s) + ":lookup")
                .then()
                .statusCode(403);
    }
}
