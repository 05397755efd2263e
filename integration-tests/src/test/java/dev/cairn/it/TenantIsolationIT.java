package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;

import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The isolation matrix: for every route with a team in it (memories, recall, sessions, tool cache, context, usage,
 * sync), user X of team A tries team B's resources and user Y's private ones.
 * Every attempt is refused (403 for a foreign team, 404 for another user's memory or session, absent from lists and
 * recall), and no response carries a byte of what it must not see.
 */
@ExtendWith(SharedServer.class)
class TenantIsolationIT {

    private static final String B_SECRET_TEXT = "Team bravo's launch codename is Nightjar Seventeen";
    private static final String Y_PRIVATE_TEXT = "Yuki privately prefers the Colemak keyboard layout";
    private static String bravoId;
    private static String yukiId;

    @BeforeAll
    static void seed() {
        bravoId = as("bea", "bravo")
                .body(Map.of("content", B_SECRET_TEXT, "scope", "team"))
                .post("/v1/teams/bravo/memories")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        yukiId = as("yuki", "alpha")
                .body(Map.of("content", Y_PRIVATE_TEXT, "scope", "user"))
                .post("/v1/teams/alpha/memories")
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        // yuki's own session in the shared team alpha: messages, tool cache, prefix, usage hold her private text
        as("yuki", "alpha")
                .body(Map.of("role", "user", "content", Y_PRIVATE_TEXT))
                .post("/v1/teams/alpha/sessions/ys1/messages")
                .then()
                .statusCode(202);
        as("yuki", "alpha")
                .body(Map.of("tool", "read_file", "params", Map.of("path", "~/.ssh/config"), "result", Y_PRIVATE_TEXT))
                .put("/v1/teams/alpha/sessions/ys1/tool-cache")
                .then()
                .statusCode(201);
        as("yuki", "alpha")
                .body(Map.of("model", "claude-sonnet-4-5", "input_tokens", 10, "output_tokens", 5))
                .post("/v1/teams/alpha/sessions/ys1/usage")
                .then()
                .statusCode(204);
        as("yuki", "alpha").get("/v1/teams/alpha/sessions/ys1/context").then().statusCode(200);
        // team bravo's session, tool cache, context prefix and team facts hold the secret text too
        as("bea", "bravo")
                .body(Map.of("role", "user", "content", B_SECRET_TEXT))
                .post("/v1/teams/bravo/sessions/s1/messages")
                .then()
                .statusCode(202);
        as("bea", "bravo")
                .body(Map.of("tool", "read_file", "params", Map.of("path", "plan.md"), "result", B_SECRET_TEXT))
                .put("/v1/teams/bravo/sessions/s1/tool-cache")
                .then()
                .statusCode(201);
        as("bea", "bravo")
                .body(Map.of("system", B_SECRET_TEXT))
                .put("/v1/teams/bravo/sessions/s1/context/prefix")
                .then()
                .statusCode(204);
        as("bea", "bravo")
                .body(Map.of(
                        "client_id",
                        "bea",
                        "base_version",
                        0,
                        "idempotency_key",
                        "seed",
                        "delta",
                        List.of(Map.of("op", "upsert", "fact_id", "codename", "content", B_SECRET_TEXT))))
                .post("/v1/teams/bravo/sync")
                .then()
                .statusCode(200);
    }

    record Attempt(String name, Function<RequestSpecification, Response> call, int status) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> attempts() {
        return Stream.of(
                        // user X (xavier) of team alpha against team bravo: every route 403
                        new Attempt(
                                "create in a foreign team",
                                r -> r.body(Map.of("content", "x")).post("/v1/teams/bravo/memories"),
                                403),
                        new Attempt(
                                "batch into a foreign team",
                                r -> r.body(Map.of("memories", List.of(Map.of("content", "x"))))
                                        .post("/v1/teams/bravo/memories:batch"),
                                403),
                        new Attempt(
                                "get a foreign team's memory", r -> r.get("/v1/teams/bravo/memories/" + bravoId), 403),
                        new Attempt(
                                "patch a foreign team's memory",
                                r -> r.header("If-Match", "\"1\"")
                                        .body(Map.of("content", "x"))
                                        .patch("/v1/teams/bravo/memories/" + bravoId),
                                403),
                        new Attempt(
                                "delete a foreign team's memory",
                                r -> r.delete("/v1/teams/bravo/memories/" + bravoId),
                                403),
                        new Attempt("list a foreign team", r -> r.get("/v1/teams/bravo/memories"), 403),
                        new Attempt(
                                "recall in a foreign team",
                                r -> r.body(Map.of("query", "launch codename")).post("/v1/teams/bravo/recall"),
                                403),
                        // the session, cache, context, usage and sync routes of team bravo: 403
                        new Attempt(
                                "append to a foreign session",
                                r -> r.body(Map.of("role", "user", "content", "x"))
                                        .post("/v1/teams/bravo/sessions/s1/messages"),
                                403),
                        new Attempt("read a foreign session", r -> r.get("/v1/teams/bravo/sessions/s1"), 403),
                        new Attempt("end a foreign session", r -> r.post("/v1/teams/bravo/sessions/s1/end"), 403),
                        new Attempt(
                                "assemble a foreign context", r -> r.get("/v1/teams/bravo/sessions/s1/context"), 403),
                        new Attempt(
                                "restore a foreign context",
                                r -> r.queryParam("turn", 1).get("/v1/teams/bravo/sessions/s1/context"),
                                403),
                        new Attempt(
                                "set a foreign context prefix",
                                r -> r.body(Map.of("system", "x")).put("/v1/teams/bravo/sessions/s1/context/prefix"),
                                403),
                        new Attempt(
                                "look up a foreign tool cache",
                                r -> r.body(Map.of("tool", "read_file", "params", Map.of("path", "plan.md")))
                                        .post("/v1/teams/bravo/sessions/s1/tool-cache:lookup"),
                                403),
                        new Attempt(
                                "fill a foreign tool cache",
                                r -> r.body(Map.of(
                                                "tool",
                                                "read_file",
                                                "params",
                                                Map.of("path", "plan.md"),
                                                "result",
                                                "x"))
                                        .put("/v1/teams/bravo/sessions/s1/tool-cache"),
                                403),
                        new Attempt(
                                "invalidate a foreign tool cache",
                                r -> r.delete("/v1/teams/bravo/sessions/s1/tool-cache"),
                                403),
                        new Attempt(
                                "read foreign tool-cache stats",
                                r -> r.get("/v1/teams/bravo/sessions/s1/tool-cache/stats"),
                                403),
                        new Attempt(
                                "post foreign usage",
                                r -> r.body(Map.of("model", "m", "input_tokens", 1, "output_tokens", 1))
                                        .post("/v1/teams/bravo/sessions/s1/usage"),
                                403),
                        new Attempt("read foreign usage", r -> r.get("/v1/teams/bravo/sessions/s1/usage"), 403),
                        new Attempt(
                                "sync into a foreign team",
                                r -> r.body(Map.of(
                                                "client_id",
                                                "x",
                                                "base_version",
                                                0,
                                                "idempotency_key",
                                                "x",
                                                "delta",
                                                List.of(Map.of("op", "delete", "fact_id", "codename"))))
                                        .post("/v1/teams/bravo/sync"),
                                403),
                        new Attempt("pull a foreign change feed", r -> r.get("/v1/teams/bravo/changes"), 403),
                        new Attempt("list foreign conflicts", r -> r.get("/v1/teams/bravo/conflicts"), 403),
                        new Attempt(
                                "resolve a foreign conflict",
                                r -> r.body(Map.of("resolution", "keep_current"))
                                        .post("/v1/teams/bravo/conflicts/c1:resolve"),
                                403),
                        new Attempt("rebuild a foreign team", r -> r.post("/v1/teams/bravo/sync:rebuild"), 403),
                        // the foreign team's memory id used inside the caller's own team: not found, not leaked
                        new Attempt("foreign id in own team", r -> r.get("/v1/teams/alpha/memories/" + bravoId), 404),
                        // user Y's (yuki's) private memory in the shared team alpha: 404 on every route
                        new Attempt("get another user's memory", r -> r.get("/v1/teams/alpha/memories/" + yukiId), 404),
                        new Attempt(
                                "patch another user's memory",
                                r -> r.header("If-Match", "\"1\"")
                                        .body(Map.of("content", "x"))
                                        .patch("/v1/teams/alpha/memories/" + yukiId),
                                404),
                        new Attempt(
                                "delete another user's memory",
                                r -> r.delete("/v1/teams/alpha/memories/" + yukiId),
                                404),
                        // yuki's own session in the shared team alpha: 404 on every session route
                        new Attempt(
                                "append to another user's session",
                                r -> r.body(Map.of("role", "user", "content", "I prefer to be called Ally."))
                                        .post("/v1/teams/alpha/sessions/ys1/messages"),
                                404),
                        new Attempt("read another user's session", r -> r.get("/v1/teams/alpha/sessions/ys1"), 404),
                        new Attempt("end another user's session", r -> r.post("/v1/teams/alpha/sessions/ys1/end"), 404),
                        new Attempt(
                                "assemble another user's context",
                                r -> r.get("/v1/teams/alpha/sessions/ys1/context"),
                                404),
                        new Attempt(
                                "restore another user's context",
                                r -> r.queryParam("turn", 1).get("/v1/teams/alpha/sessions/ys1/context"),
                                404),
                        new Attempt(
                                "set another user's context prefix",
                                r -> r.body(Map.of("system", "x")).put("/v1/teams/alpha/sessions/ys1/context/prefix"),
                                404),
                        new Attempt(
                                "make another user's session a team session",
                                r -> r.body(Map.of("visibility", "team")).put("/v1/teams/alpha/sessions/ys1"),
                                404),
                        new Attempt(
                                "look up another user's tool cache",
                                r -> r.body(Map.of("tool", "read_file", "params", Map.of("path", "~/.ssh/config")))
                                        .post("/v1/teams/alpha/sessions/ys1/tool-cache:lookup"),
                                404),
                        new Attempt(
                                "fill another user's tool cache",
                                r -> r.body(Map.of("tool", "read_file", "params", Map.of("path", "x"), "result", "x"))
                                        .put("/v1/teams/alpha/sessions/ys1/tool-cache"),
                                404),
                        new Attempt(
                                "invalidate another user's tool cache",
                                r -> r.delete("/v1/teams/alpha/sessions/ys1/tool-cache"),
                                404),
                        new Attempt(
                                "read another user's tool-cache stats",
                                r -> r.get("/v1/teams/alpha/sessions/ys1/tool-cache/stats"),
                                404),
                        new Attempt(
                                "post another user's usage",
                                r -> r.body(Map.of("model", "m", "input_tokens", 1, "output_tokens", 1))
                                        .post("/v1/teams/alpha/sessions/ys1/usage"),
                                404),
                        new Attempt("read another user's usage", r -> r.get("/v1/teams/alpha/sessions/ys1/usage"), 404),
                        new Attempt(
                                "list with scope=user",
                                r -> r.queryParam("scope", "user").get("/v1/teams/alpha/memories"),
                                200),
                        new Attempt("list everything", r -> r.get("/v1/teams/alpha/memories"), 200),
                        new Attempt(
                                "recall another user's memory",
                                r -> r.body(Map.of("query", "which keyboard layout does yuki prefer?", "top_k", 50))
                                        .post("/v1/teams/alpha/recall"),
                                200),
                        new Attempt(
                                "recall scope=user",
                                r -> r.body(Map.of("query", "keyboard layout", "scope", "user"))
                                        .post("/v1/teams/alpha/recall"),
                                200))
                .map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attempts")
    void xavier_shouldBeRefused_andSeeNothing(Attempt attempt) {
        Response r = attempt.call().apply(as("xavier", "alpha"));
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(attempt.status());
        assertThat(r.asString())
                .doesNotContain(B_SECRET_TEXT)
                .doesNotContain("Nightjar")
                .doesNotContain(Y_PRIVATE_TEXT)
                .doesNotContain("Colemak");
        if (attempt.status() == 200) {
            // an answer that lists or recalls must not even reveal that the other memories exist (a refusal may
            // quote the id the caller sent)
            assertThat(r.asString()).doesNotContain(yukiId).doesNotContain(bravoId);
        }
    }

    @ParameterizedTest(name = "{0} leaves it unchanged")
    @MethodSource("attempts")
    void theirMemories_shouldBeUnchanged_afterEachAttempt(Attempt attempt) {
        attempt.call().apply(as("xavier", "alpha"));
        as("bea", "bravo")
                .get("/v1/teams/bravo/memories/" + bravoId)
                .then()
                .statusCode(200)
                .body("version", org.hamcrest.Matchers.equalTo(1))
                .body("content", org.hamcrest.Matchers.equalTo(B_SECRET_TEXT));
        as("yuki", "alpha")
                .get("/v1/teams/alpha/memories/" + yukiId)
                .then()
                .statusCode(200)
                .body("version", org.hamcrest.Matchers.equalTo(1))
                .body("content", org.hamcrest.Matchers.equalTo(Y_PRIVATE_TEXT));
        as("yuki", "alpha")
                .get("/v1/teams/alpha/sessions/ys1")
                .then()
                .statusCode(200)
                .body("message_count", org.hamcrest.Matchers.equalTo(1))
                .body("ended", org.hamcrest.Matchers.equalTo(false));
        as("yuki", "alpha")
                .get("/v1/teams/alpha/sessions/ys1/tool-cache/stats")
                .then()
                .body("entries", org.hamcrest.Matchers.equalTo(1));
        as("yuki", "alpha")
                .get("/v1/teams/alpha/sessions/ys1/usage")
                .then()
                .body("requests", org.hamcrest.Matchers.equalTo(1));
    }
}
