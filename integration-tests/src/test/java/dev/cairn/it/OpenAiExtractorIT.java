package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code cairn.backend.extractor=openai} and {@code summarizer=openai} on the packaged local server, against a local
 * OpenAI-compatible stand-in with recorded answers. What the model proposes is validated (a type outside the five, a
 * password, evidence that is the assistant's are not kept); when the model fails (500, malformed JSON, timeout) the
 * session end answers 503 and writes nothing, while appends — even ones that ask to remember — never fail.
 */
class OpenAiExtractorIT {

    private static OpenAiStandIn model;
    private static LocalServer server;

    @BeforeAll
    static void start() throws Exception {
        model = new OpenAiStandIn();
        Path data = Files.createTempDirectory(LocalServer.workDir(), "openai-");
        server = new LocalServer(data)
                .start(
                        "-Dcairn.backend.extractor=openai",
                        "-Dcairn.backend.summarizer=openai",
                        "-Dcairn.openai.base-url=" + model.baseUrl(),
                        "-Dcairn.openai.model=qwen2.5:7b",
                        "-Dcairn.openai.timeout=1s",
                        "-Dcairn.openai.max-attempts=2",
                        "-Dcairn.openai.backoff=50ms");
        server.awaitHealth("/q/health/ready");
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.close();
        }
        if (model != null) {
            model.close();
        }
    }

    private static RequestSpecification as(String team) {
        return RestAssured.given()
                .baseUri(server.baseUrl())
                .contentType(ContentType.JSON)
                .header("Authorization", "Bearer " + server.token("alice", team));
    }

    private static void conversation(String team, String session) {
        for (String[] m : List.of(
                new String[] {"user", "I always prefer Kotlin over Java for new services, please remember that."},
                new String[] {"assistant", "Noted: Kotlin for new services."},
                new String[] {
                    "user", "Our team convention is that every API returns RFC 9457 problem details on errors."
                },
                new String[] {"user", "The staging DB password is hunter2, by the way."})) {
            as(team).body(Map.of("role", m[0], "content", m[1]))
                    .post("/v1/teams/" + team + "/sessions/" + session + "/messages")
                    .then()
                    .statusCode(202);
        }
    }

    @Test
    void sessionEnd_shouldWriteOnlyWhatPassesCairnsChecks_whenTheModelAnswers() {
        model.mode(OpenAiStandIn.Mode.RECORDED);
        String team = "openai-ok";
        conversation(team, "s1");

        JsonPath ended = as(team).post("/v1/teams/" + team + "/sessions/s1/end")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        // the explicit preference was written at its append; the end adds the convention
        assertThat(ended.getList("extracted.type")).containsExactly("convention");
        assertThat(ended.getList("extracted.scope")).containsExactly("team");
        assertThat(ended.getList("skipped.reason"))
                .contains("secret", "invalid: type 'opinion'", "no evidence in the user's messages");
        assertThat(ended.getList("skipped.text", String.class)).noneMatch(t -> t.contains("hunter2"));
        List<String> stored = as(team).get("/v1/teams/" + team + "/memories?limit=100")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("memories.type", String.class);
        assertThat(stored).containsExactlyInAnyOrder("preference", "convention");
    }

    @ParameterizedTest
    @EnumSource(
            value = OpenAiStandIn.Mode.class,
            names = {"SERVER_ERROR", "MALFORMED", "SLOW"})
    void sessionEnd_shouldAnswer503AndWriteNothing_whileAppendsStillSucceed_whenTheModelFails(
            OpenAiStandIn.Mode failure) {
        model.mode(failure);
        String team =
                "openai-" + failure.name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
        int before = model.calls();
        conversation(team, "s1"); // every append answers 202, the one asking to remember included

        as(team).post("/v1/teams/" + team + "/sessions/s1/end")
                .then()
                .statusCode(503)
                .contentType("application/problem+json")
                .body("status", equalTo(503))
                .body("detail", containsString("language model"));
        assertThat(model.calls() - before).isGreaterThanOrEqualTo(4); // two attempts at the append, two at the end
        as(team).get("/v1/teams/" + team + "/memories?limit=100")
                .then()
                .statusCode(200)
                .body("memories.size()", equalTo(0));

        // nothing was closed: once the model is back, the same session ends normally
        model.mode(OpenAiStandIn.Mode.RECORDED);
        as(team).post("/v1/teams/" + team + "/sessions/s1/end")
                .then()
                .statusCode(200)
                .body("extracted.type", org.hamcrest.Matchers.hasItem("convention"));
    }
}
