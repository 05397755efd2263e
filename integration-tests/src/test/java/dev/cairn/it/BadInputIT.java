package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Every kind of bad input gets a 4xx problem+json with a detail a person understands, and stores nothing. */
@ExtendWith(SharedServer.class)
class BadInputIT {

    private static final String TEAM = "badinput";
    private static final String MEMORIES = "/v1/teams/badinput/memories";
    private static final String RECALL = "/v1/teams/badinput/recall";
    private static final String BIG = "x".repeat(32 * 1024 + 1);

    static Stream<Arguments> badWrites() {
        return Stream.of(
                Arguments.of("malformed JSON", MEMORIES, "{\"content\":", 400, "not valid JSON"),
                Arguments.of("array instead of object", MEMORIES, "[]", 400, "object"),
                Arguments.of("number as content", MEMORIES, "{\"content\": 5}", 400, "content"),
                Arguments.of("empty content", MEMORIES, "{\"content\": \"\"}", 400, "content"),
                Arguments.of("blank content", MEMORIES, "{\"content\": \"   \"}", 400, "content"),
                Arguments.of("missing content", MEMORIES, "{}", 400, "content is required"),
                Arguments.of("over-long content", MEMORIES, "{\"content\": \"" + BIG + "\"}", 413, "32768"),
                Arguments.of(
                        "importance above 1", MEMORIES, "{\"content\":\"x\",\"importance\":1.5}", 400, "importance"),
                Arguments.of(
                        "number sent as string",
                        MEMORIES,
                        "{\"content\":\"x\",\"importance\":\"0.5\"}",
                        400,
                        "importance"),
                Arguments.of("unknown type", MEMORIES, "{\"content\":\"x\",\"type\":\"opinion\"}", 400, "type"),
                Arguments.of("unknown scope", MEMORIES, "{\"content\":\"x\",\"scope\":\"global\"}", 400, "scope"),
                Arguments.of(
                        "tag outside the grammar",
                        MEMORIES,
                        "{\"content\":\"x\",\"tags\":[\"Bad Tag\"]}",
                        400,
                        "tags[0]"),
                Arguments.of(
                        "unknown field",
                        MEMORIES,
                        "{\"content\":\"x\",\"colour\":\"red\"}",
                        400,
                        "unknown field 'colour'"),
                Arguments.of(
                        "a field the server keeps for itself",
                        MEMORIES,
                        "{\"content\":\"x\",\"refused\":true}",
                        400,
                        "unknown field 'refused'"),
                Arguments.of(
                        "bad timestamp",
                        MEMORIES,
                        "{\"content\":\"x\",\"occurred_at\":\"yesterday\"}",
                        400,
                        "occurred_at"),
                Arguments.of("trailing garbage", MEMORIES, "{\"content\":\"x\"} {}", 400, "JSON"),
                Arguments.of("NUL in content", MEMORIES, "{\"content\":\"a\\u0000b\"}", 400, "NUL"),
                Arguments.of("empty batch", MEMORIES + ":batch", "{\"memories\": []}", 400, "at least one"),
                Arguments.of("batch not an array", MEMORIES + ":batch", "{\"memories\": {}}", 400, "memories"),
                Arguments.of("oversized batch", MEMORIES + ":batch", batchOf(501), 400, "the most is 500"),
                Arguments.of("negative top_k", RECALL, "{\"query\":\"x\",\"top_k\":-1}", 400, "top_k"),
                Arguments.of("zero top_k", RECALL, "{\"query\":\"x\",\"top_k\":0}", 400, "top_k"),
                Arguments.of("fractional top_k", RECALL, "{\"query\":\"x\",\"top_k\":2.5}", 400, "top_k"),
                Arguments.of("weight above 1", RECALL, "{\"query\":\"x\",\"weights\":{\"alpha\":2}}", 400, "alpha"),
                Arguments.of("negative weight", RECALL, "{\"query\":\"x\",\"weights\":{\"beta\":-0.1}}", 400, "beta"),
                Arguments.of(
                        "all weights zero",
                        RECALL,
                        "{\"query\":\"x\",\"weights\":{\"alpha\":0,\"beta\":0,\"gamma\":0}}",
                        400,
                        "positive"),
                Arguments.of("unknown weight", RECALL, "{\"query\":\"x\",\"weights\":{\"delta\":1}}", 400, "delta"),
                Arguments.of("zero half-life", RECALL, "{\"query\":\"x\",\"half_life_days\":0}", 400, "half_life_days"),
                Arguments.of(
                        "pool smaller than top_k",
                        RECALL,
                        "{\"query\":\"x\",\"top_k\":10,\"candidates\":5}",
                        400,
                        "candidates"),
                Arguments.of("missing query", RECALL, "{\"top_k\":3}", 400, "query is required"),
                Arguments.of("unknown recall scope", RECALL, "{\"query\":\"x\",\"scope\":\"world\"}", 400, "scope"),
                Arguments.of(
                        "unknown recall type", RECALL, "{\"query\":\"x\",\"types\":[\"gossip\"]}", 400, "types[0]"),
                Arguments.of("bad as_of", RECALL, "{\"query\":\"x\",\"as_of\":\"last week\"}", 400, "as_of"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badWrites")
    void badBodies_shouldGetProblemJson(String name, String path, String body, int status, String detailPart) {
        Response r = as("alice", TEAM).body(body).post(path);
        assertProblem(r, status, detailPart);
    }

    @Test
    void aSecretSentAsAFieldName_shouldNotComeBackInTheProblem() {
        String token = "ghp_wIl9DV4WTFuq1vq3ozrKT4AqNG5vp2PV9o5Y";
        Response r = as("alice", TEAM)
                .body("{\"content\":\"x\",\"" + token + "\":1}")
                .post(MEMORIES);

        assertProblem(r, 400, "unknown field '[REDACTED:github-pat]'");
        assertThat(r.asString()).doesNotContain(token);
    }

    static Stream<Arguments> badIds() {
        return Stream.of(
                Arguments.of("uppercase team", "/v1/teams/ACME/memories", "uppercase"),
                Arguments.of("encoded slash", "/v1/teams/badinput/memories/a%2Fb", "separator"),
                Arguments.of("traversal", "/v1/teams/badinput/memories/..%2Fx", "separator"),
                Arguments.of("NUL", "/v1/teams/badinput/memories/a%00b", "NUL"),
                Arguments.of("65 characters", "/v1/teams/badinput/memories/" + "a".repeat(65), "64"),
                Arguments.of("full-width letters", "/v1/teams/%EF%BD%81%EF%BD%83%EF%BD%8D%EF%BD%85/memories", "U+FF41"),
                Arguments.of("cyrillic look-alike", "/v1/teams/badinput/memories/%D0%B0bc", "U+0430"),
                Arguments.of("leading dash", "/v1/teams/badinput/memories/-abc", "start"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badIds")
    void idsOutsideTheGrammar_shouldBeRejected_notCleaned(String name, String path, String detailPart) {
        Response r = as("alice", TEAM).urlEncodingEnabled(false).get(path);
        assertProblem(r, 400, detailPart);
    }

    @Test
    void badQueryParameters_shouldGetProblemJson() {
        assertProblem(as("alice", TEAM).queryParam("limit", 0).get(MEMORIES), 400, "limit");
        assertProblem(as("alice", TEAM).queryParam("limit", "many").get(MEMORIES), 400, "limit");
        assertProblem(as("alice", TEAM).queryParam("order", "random").get(MEMORIES), 400, "order");
        assertProblem(as("alice", TEAM).queryParam("cursor", "bm90LWEtY3Vyc29y").get(MEMORIES), 400, "cursor");
    }

    @Test
    void theKnownFieldsOfAnError_shouldNotListWhatTheServerKeepsForItself() {
        Response r =
                as("alice", TEAM).body("{\"content\":\"x\",\"colour\":\"red\"}").post(MEMORIES);
        assertProblem(r, 400, "known fields: confidence, content, context");
        assertThat(r.jsonPath().getString("detail")).doesNotContain("refused");
    }

    @Test
    void undeclaredQueryParameters_shouldBeRefused_notIgnored() {
        // a body field sent as a query parameter, a misspelt one, one on a route that takes none
        assertProblem(as("alice", TEAM).queryParam("top_k", 3).get(MEMORIES), 400, "top_k is not a query parameter");
        assertProblem(as("alice", TEAM).queryParam("limt", 5).get(MEMORIES), 400, "takes: cursor, limit, order");
        assertProblem(
                as("alice", TEAM)
                        .queryParam("top_k", 3)
                        .body("{\"query\":\"x\"}")
                        .post(RECALL),
                400,
                "which takes none");
        Response wrote = as("alice", TEAM)
                .queryParam("dry_run", "true")
                .body("{\"content\":\"must not be stored\"}")
                .post(MEMORIES);
        assertProblem(wrote, 400, "dry_run");
        // a declared one given twice would be read as its first value alone
        assertProblem(
                as("alice", TEAM)
                        .queryParam("tag", "backup")
                        .queryParam("tag", "ops")
                        .get(MEMORIES),
                400,
                "tag is given 2 times");
        // the declared ones still work
        assertThat(as("alice", TEAM)
                        .queryParam("limit", 5)
                        .queryParam("order", "recency")
                        .get(MEMORIES)
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void aBodySentToARouteThatReadsNone_shouldBeRefused_andTheSessionLeftOpen() {
        // its own team: ending the session stores a memory, and this class checks that TEAM holds none
        String team = "badinput-body";
        String session = "body-" + System.nanoTime();
        String messages = "/v1/teams/" + team + "/sessions/" + session + "/messages";
        assertThat(as("alice", team)
                        .body("{\"role\":\"user\",\"content\":\"I prefer tabs over spaces.\"}")
                        .post(messages)
                        .statusCode())
                .isEqualTo(202);
        // a new user's trial: the body was ignored and the session ended, facts stored, instead of a dry run
        assertProblem(
                as("alice", team)
                        .body("{\"dry_run\":true}")
                        .post("/v1/teams/" + team + "/sessions/" + session + "/end"),
                400,
                "dry_run");
        assertThat(as("alice", team)
                        .body("{\"role\":\"user\",\"content\":\"still open\"}")
                        .post(messages)
                        .statusCode())
                .as("the refused end left the session open")
                .isEqualTo(202);
        // what clients send with every POST still works
        assertThat(as("alice", team)
                        .body("{}")
                        .post("/v1/teams/" + team + "/sessions/" + session + "/end")
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void wrongMediaType_shouldGet415() {
        Response r = as("alice", TEAM)
                .contentType("text/plain")
                .body("remember this")
                .post(MEMORIES);
        assertProblem(r, 415, "application/json");
    }

    @Test
    void patch_shouldRejectBadIfMatchAndEmptyChanges() {
        String id = "01aaaaaaaaaaaaaaaaaaaaaaaa";
        assertProblem(
                as("alice", TEAM)
                        .header("If-Match", "abc")
                        .body("{\"content\":\"y\"}")
                        .patch(MEMORIES + "/" + id),
                400,
                "If-Match");
        assertProblem(
                as("alice", TEAM).header("If-Match", "\"1\"").body("{}").patch(MEMORIES + "/" + id), 400, "no field");
        assertProblem(
                as("alice", TEAM)
                        .header("If-Match", "\"1\"")
                        .body("{\"state\":\"deleted\"}")
                        .patch(MEMORIES + "/" + id),
                400,
                "state");
        assertProblem(
                as("alice", TEAM)
                        .header("If-Match", "\"1\"")
                        .body("{\"content\":\"y\"}")
                        .patch(MEMORIES + "/" + id),
                404,
                "not found");
    }

    @AfterAll
    static void nothingWasStored() {
        assertThat(as("alice", TEAM)
                        .get(MEMORIES)
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("memories"))
                .isEmpty();
    }

    private static void assertProblem(Response r, int status, String detailPart) {
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(status);
        assertThat(r.contentType()).startsWith("application/problem+json");
        assertThat(r.jsonPath().getInt("status")).isEqualTo(status);
        assertThat(r.jsonPath().getString("detail")).containsIgnoringCase(detailPart);
        assertThat(r.jsonPath().getString("type")).startsWith("https://cairn.dev/problems/");
    }

    private static String batchOf(int n) {
        StringBuilder sb = new StringBuilder("{\"memories\":[");
        for (int i = 0; i < n; i++) {
            sb.append(i == 0 ? "" : ",")
                    .append("{\"content\":\"item ")
                    .append(i)
                    .append("\"}");
        }
        return sb.append("]}").toString();
    }
}
