package dev.cairn.it;

import static dev.cairn.it.SharedServer.anonymous;
import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(SharedServer.class)
class AuthIT {

    private static final String TEAM = "authteam";

    @Test
    void v1Routes_shouldAnswer401_withoutToken() {
        anonymous()
                .body(Map.of("query", "x"))
                .post("/v1/teams/{t}/recall", TEAM)
                .then()
                .statusCode(401)
                .header("WWW-Authenticate", "Bearer")
                .contentType(startsWith("application/problem+json"))
                .body("status", equalTo(401));
        anonymous().get("/v1/teams/{t}/memories", TEAM).then().statusCode(401);
    }

    @Test
    void v1Routes_shouldAnswer401_forGarbageOrForeignTokens() throws Exception {
        anonymous()
                .header("Authorization", "Bearer not.a.jwt")
                .get("/v1/teams/{t}/memories", TEAM)
                .then()
                .statusCode(401)
                .body("detail", containsString("invalid"));
        anonymous()
                .header("Authorization", "Basic YWxpY2U6cHc=")
                .get("/v1/teams/{t}/memories", TEAM)
                .then()
                .statusCode(401);
        // a well-formed token signed by another installation's key
        String foreign = LocalServer.mint(Files.createTempDirectory(LocalServer.workDir(), "foreign-"), "alice", TEAM);
        anonymous()
                .header("Authorization", "Bearer " + foreign)
                .get("/v1/teams/{t}/memories", TEAM)
                .then()
                .statusCode(401);
    }

    @Test
    void teamRoutes_shouldAnswer403_whenTheTeamIsNotInTheToken() {
        as("alice", TEAM)
                .body(Map.of("content", "secret plan"))
                .post("/v1/teams/{t}/memories", "otherteam")
                .then()
                .statusCode(403)
                .body("detail", containsString("otherteam"));
        as("alice", TEAM)
                .body(Map.of("query", "plan"))
                .post("/v1/teams/{t}/recall", "otherteam")
                .then()
                .statusCode(403);
        as("alice", TEAM).get("/v1/teams/{t}/memories", "otherteam").then().statusCode(403);
        as("mallory", "otherteam")
                .get("/v1/teams/{t}/memories", "otherteam")
                .then()
                .statusCode(200)
                .body("memories", org.hamcrest.Matchers.empty());
    }

    @Test
    void userScopeMemories_shouldBeInvisibleToOtherMembers() {
        String id = as("alice", TEAM)
                .body(Map.of("content", "Alice's dentist appointment is on Friday", "scope", "user"))
                .post("/v1/teams/{t}/memories", TEAM)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
        as("alice", TEAM)
                .body(Map.of("content", "The team standup is at 9:30", "scope", "team"))
                .post("/v1/teams/{t}/memories", TEAM)
                .then()
                .statusCode(201);

        as("bob", TEAM).get("/v1/teams/{t}/memories/{id}", TEAM, id).then().statusCode(404);
        as("bob", TEAM)
                .header("If-Match", "\"1\"")
                .body(Map.of("content", "hijacked"))
                .patch("/v1/teams/{t}/memories/{id}", TEAM, id)
                .then()
                .statusCode(404);
        as("bob", TEAM).delete("/v1/teams/{t}/memories/{id}", TEAM, id).then().statusCode(404);
        List<String> bobRecall = as("bob", TEAM)
                .body(Map.of("query", "when is the dentist appointment?"))
                .post("/v1/teams/{t}/recall", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .path("results.memory.content");
        assertThat(bobRecall).noneMatch(c -> c.contains("dentist")).contains("The team standup is at 9:30");
        List<String> bobList = as("bob", TEAM)
                .get("/v1/teams/{t}/memories", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .path("memories.content");
        assertThat(bobList).noneMatch(c -> c.contains("dentist"));

        List<String> aliceRecall = as("alice", TEAM)
                .body(Map.of("query", "when is the dentist appointment?", "scope", "user"))
                .post("/v1/teams/{t}/recall", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .path("results.memory.content");
        assertThat(aliceRecall).containsExactly("Alice's dentist appointment is on Friday");
    }
}
