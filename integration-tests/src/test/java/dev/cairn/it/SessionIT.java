package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import io.restassured.path.json.JsonPath;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The session buffer over HTTP: appends, folding into the rolling summary, bad input, the secret gate. */
@ExtendWith(SharedServer.class)
class SessionIT {

    private static final String BASE = "/v1/teams/sessions-it/sessions/";

    @Test
    void fortyMessages_shouldFoldTheOldest_intoASummaryThatKeepsTheirNames() {
        String session = "fold-" + System.nanoTime();
        for (int i = 1; i <= 40; i++) {
            String text = i == 1
                    ? "We decided that Priya owns the Falcon release and it ships on March 12."
                    : "Message " + i + " about routine work on the pipeline.";
            as("alice", "sessions-it")
                    .body(Map.of("role", i % 2 == 0 ? "assistant" : "user", "content", text))
                    .post(BASE + session + "/messages")
                    .then()
                    .statusCode(202)
                    .body("message_count", equalTo(i));
        }
        JsonPath view = as("alice", "sessions-it")
                .get(BASE + session)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(view.getLong("message_count")).isEqualTo(40);
        assertThat(view.getList("recent_messages")).hasSizeLessThanOrEqualTo(30);
        assertThat(view.getLong("summary_version")).isPositive();
        assertThat(view.getString("rolling_summary"))
                .contains("Priya")
                .contains("Falcon")
                .contains("12");
        assertThat(view.getList("recent_messages").size() + view.getInt("summary_version") * 15)
                .isEqualTo(40);
        assertThat(view.getString("recent_messages[-1].content"))
                .isEqualTo("Message 40 about routine work on the " + "pipeline.");
    }

    @Test
    void badAppends_shouldGetProblemJson_andWriteNothing() {
        String session = "bad-" + System.nanoTime();
        as("alice", "sessions-it")
                .body(Map.of("role", "system", "content", "x"))
                .post(BASE + session + "/messages")
                .then()
                .statusCode(400)
                .contentType(startsWith("application/problem+json"))
                .body("errors[0].field", equalTo("role"));
        as("alice", "sessions-it")
                .body(Map.of("role", "user", "content", " "))
                .post(BASE + session + "/messages")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("content"));
        as("alice", "sessions-it")
                .body(Map.of("role", "user", "content", "x".repeat(32 * 1024 + 1)))
                .post(BASE + session + "/messages")
                .then()
                .statusCode(413);
        as("alice", "sessions-it")
                .body(Map.of("role", "user", "content", "x"))
                .post("/v1/teams/sessions-it/sessions/Bad_Session/messages")
                .then()
                .statusCode(400)
                .body("errors[0].field", equalTo("session"));
        as("alice", "sessions-it")
                .body(Map.of("role", "user", "content", "x"))
                .post("/v1/teams/elsewhere/sessions/" + session + "/messages")
                .then()
                .statusCode(403);
        as("alice", "sessions-it").get(BASE + session).then().statusCode(200).body("message_count", equalTo(0));
    }

    @Test
    void aSecretInAMessage_shouldNeverBeStoredOrReturned() {
        String session = "secret-" + System.nanoTime();
        String pat = "ghp_" + "R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";
        as("alice", "sessions-it")
                .body(Map.of("role", "user", "content", "use " + pat + " to push"))
                .post(BASE + session + "/messages")
                .then()
                .statusCode(202);
        String body = as("alice", "sessions-it")
                .get(BASE + session)
                .then()
                .statusCode(200)
                .extract()
                .asString();
        assertThat(body).doesNotContain(pat).contains("[REDACTED:github-pat]");
    }
}
