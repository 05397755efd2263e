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
 * The isolation matrix: for every memory route, user X of team A tries team B's resources and user Y's private ones.
 * Every attempt is refused (403 for a foreign team, 404 for another user's memory, absent from lists and recall),
 * and no response carries a byte of what it must not see.
 */
@ExtendWith(SharedServer.class)
class TenantIsolationIT {

    private static final String B_SECRET_TEXT = "Team bravo's launch codename is Nightjar Seventeen";
    private static final String Y_PRIVATE_TEXT = "Yuki privately prefers the Colemak keyboard layout";
    private static String bravoId;
    private static String yukiId;

    @BeforeAll
    static void seed() {
        bravoId = as("bea", "bravo").body(Map.of("content", B_SECRET_TEXT, "scope", "team"))
                .post("/v1/teams/bravo/memories").then().statusCode(201).extract().path("id");
        yukiId = as("yuki", "alpha").body(Map.of("content", Y_PRIVATE_TEXT, "scope", "user"))
                .post("/v1/teams/alpha/memories").then().statusCode(201).extract().path("id");
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
                new Attempt("create in a foreign team", r -> r.body(Map.of("content", "x"))
                        .post("/v1/teams/bravo/memories"), 403),
                new Attempt("batch into a foreign team", r -> r.body(Map.of("memories", List.of(Map.of("content",
                        "x")))).post("/v1/teams/bravo/memories:batch"), 403),
                new Attempt("get a foreign team's memory", r -> r.get("/v1/teams/bravo/memories/" + bravoId), 403),
                new Attempt("patch a foreign team's memory", r -> r.header("If-Match", "\"1\"")
                        .body(Map.of("content", "x")).patch("/v1/teams/bravo/memories/" + bravoId), 403),
                new Attempt("delete a foreign team's memory", r -> r.delete("/v1/teams/bravo/memories/" + bravoId),
                        403),
                new Attempt("list a foreign team", r -> r.get("/v1/teams/bravo/memories"), 403),
                new Attempt("recall in a foreign team", r -> r.body(Map.of("query", "launch codename"))
                        .post("/v1/teams/bravo/recall"), 403),
                // the foreign team's memory id used inside the caller's own team: not found, not leaked
                new Attempt("foreign id in own team", r -> r.get("/v1/teams/alpha/memories/" + bravoId), 404),
                // user Y's (yuki's) private memory in the shared team alpha: 404 on every route
                new Attempt("get another user's memory", r -> r.get("/v1/teams/alpha/memories/" + yukiId), 404),
                new Attempt("patch another user's memory", r -> r.header("If-Match", "\"1\"")
                        .body(Map.of("content", "x")).patch("/v1/teams/alpha/memories/" + yukiId), 404),
                new Attempt("delete another user's memory", r -> r.delete("/v1/teams/alpha/memories/" + yukiId),
                        404),
                new Attempt("list with scope=user", r -> r.queryParam("scope", "user")
                        .get("/v1/teams/alpha/memories"), 200),
                new Attempt("list everything", r -> r.get("/v1/teams/alpha/memories"), 200),
                new Attempt("recall another user's memory", r -> r.body(Map.of("query",
                        "which keyboard layout does yuki prefer?", "top_k", 50)).post("/v1/teams/alpha/recall"), 200),
                new Attempt("recall scope=user", r -> r.body(Map.of("query", "keyboard layout", "scope", "user"))
                        .post("/v1/teams/alpha/recall"), 200)
        ).map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attempts")
    void xavier_shouldBeRefused_andSeeNothing(Attempt attempt) {
        Response r = attempt.call().apply(as("xavier", "alpha"));
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(attempt.status());
        assertThat(r.asString()).doesNotContain(B_SECRET_TEXT).doesNotContain("Nightjar")
                .doesNotContain(Y_PRIVATE_TEXT).doesNotContain("Colemak");
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
        as("bea", "bravo").get("/v1/teams/bravo/memories/" + bravoId).then().statusCode(200)
                .body("version", org.hamcrest.Matchers.equalTo(1))
                .body("content", org.hamcrest.Matchers.equalTo(B_SECRET_TEXT));
        as("yuki", "alpha").get("/v1/teams/alpha/memories/" + yukiId).then().statusCode(200)
                .body("version", org.hamcrest.Matchers.equalTo(1))
                .body("content", org.hamcrest.Matchers.equalTo(Y_PRIVATE_TEXT));
    }
}
