package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.startsWith;

import dev.cairn.client.CairnClient;
import dev.cairn.client.Memories;
import io.restassured.path.json.JsonPath;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * A memory's {@code context} through the API (issue 18 item 3): a conversation turn written with the reply it got is
 * found by a word only the reply holds, with the cosine of the turn itself; the context is answered, screened for
 * secrets like the content, and gone with the memory.
 */
@ExtendWith(SharedServer.class)
class MemoryContextIT {

    private static final String TEAM = "memory-context";
    private static final String QUESTION = "Which store did the review choose for the session table?";
    private static final String PAT = "ghp_" + "R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";

    private static JsonPath recall(String user, String team, String query) {
        return as(user, team)
                .body(Map.of("query", query, "top_k", 5))
                .post("/v1/teams/{team}/recall", team)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    @Test
    void aTurnWrittenWithItsReply_isFoundByAWordOnlyTheReplyHolds_andGoesWithTheMemory() {
        // GIVEN the same question twice, once with the reply it got as its context
        String withReply = as("alice", TEAM)
                .body(Map.of(
                        "content", QUESTION,
                        "type", "episode",
                        "scope", "team",
                        "context", "The review chose Quillbase, because it keeps per-item TTLs."))
                .post("/v1/teams/{team}/memories", TEAM)
                .then()
                .statusCode(201)
                .body("content", equalTo(QUESTION))
                .body("context", equalTo("The review chose Quillbase, because it keeps per-item TTLs."))
                .extract()
                .path("id");
        String bare = as("alice", TEAM)
                .body(Map.of("memories", List.of(Map.of("content", QUESTION, "type", "episode", "scope", "team"))))
                .post("/v1/teams/{team}/memories:batch", TEAM)
                .then()
                .statusCode(200)
                .body("results[0].memory", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("context")))
                .extract()
                .path("results[0].memory.id");

        // WHEN asked for a word only the reply holds THEN the memory with the reply comes first, by its lexical part,
        // while both carry the same cosine (the embedding is the turn's alone)
        JsonPath answer = recall("alice", TEAM, "Quillbase");
        assertThat(answer.getString("results[0].memory.id")).isEqualTo(withReply);
        assertThat(answer.getDouble("results[0].lexical")).isGreaterThan(0);
        List<String> ids = answer.getList("results.memory.id");
        assertThat(ids).contains(bare);
        int b = ids.indexOf(bare);
        assertThat(answer.getDouble("results[" + b + "].lexical")).isZero();
        assertThat(answer.getDouble("results[" + b + "].similarity"))
                .isCloseTo(answer.getDouble("results[0].similarity"), org.assertj.core.data.Offset.offset(1e-4));
        assertThat(answer.getString("results[0].memory.context")).contains("Quillbase");

        // WHEN read back THEN the context is there; a PATCH cannot name it (it is set when the memory is written)
        as("alice", TEAM)
                .get("/v1/teams/{team}/memories/{id}", TEAM, withReply)
                .then()
                .statusCode(200)
                .body("context", startsWith("The review chose Quillbase"));
        as("alice", TEAM)
                .header("If-Match", "\"1\"")
                .body(Map.of("context", "something else"))
                .patch("/v1/teams/{team}/memories/{id}", TEAM, withReply)
                .then()
                .statusCode(400)
                .contentType(startsWith("application/problem+json"))
                .body("detail", containsString("context"))
                .body("detail", containsString("delete the memory and write it again"));

        // WHEN deleted THEN the word it was found by finds nothing any more
        as("alice", TEAM)
                .delete("/v1/teams/{team}/memories/{id}", TEAM, withReply)
                .then()
                .statusCode(204);
        JsonPath after = recall("alice", TEAM, "Quillbase");
        assertThat(after.getList("results.memory.id")).doesNotContain(withReply);
        assertThat(after.getList("results.lexical", Float.class)).allMatch(l -> l == 0f);
    }

    @Test
    void aSecretInTheContext_isRefusedByARejectingTeam_andRedactedApartByARedactingOne() {
        as("alice", "strict")
                .body(Map.of("content", "How do deploys authenticate?", "context", "With " + PAT))
                .post("/v1/teams/strict/memories")
                .then()
                .statusCode(422)
                .contentType(startsWith("application/problem+json"))
                .body("detail", startsWith("context holds 1 secret"));
        assertThat(recall("alice", "strict", "How do deploys authenticate?")
                        .getList("results.memory.content", String.class))
                .doesNotContain("How do deploys authenticate?");

        String body = as("alice", "redacting-context")
                .body(Map.of("content", "How do deploys authenticate?", "context", "With " + PAT + " for now"))
                .post("/v1/teams/redacting-context/memories")
                .then()
                .statusCode(201)
                .body("content", equalTo("How do deploys authenticate?"))
                .body("context", equalTo("With [REDACTED:github-pat] for now"))
                .body("context_redactions.rule_id", equalTo(List.of("github-pat")))
                .body("context_redactions[0].start", equalTo(5))
                .body("$", org.hamcrest.Matchers.not(org.hamcrest.Matchers.hasKey("redactions")))
                .extract()
                .asString();
        assertThat(body).doesNotContain(PAT);
        assertThat(recall("alice", "redacting-context", "ghp").prettify()).doesNotContain(PAT);
    }

    @Test
    void theJavaClient_writesAndReadsTheContext() {
        CairnClient client = CairnClient.builder(
                        URI.create(SharedServer.server().baseUrl()))
                .token(SharedServer.server().token("alice", "context-client"))
                .build();
        Memories.Memory created = client.createMemory(
                "context-client",
                Memories.NewMemory.of("Which region hosts the EU tenants?", "team", "episode")
                        .withContext("eu-central-2, since the audit."));
        assertThat(created.context()).isEqualTo("eu-central-2, since the audit.");
        assertThat(created.content()).isEqualTo("Which region hosts the EU tenants?");
        assertThat(recall("alice", "context-client", "eu-central-2").getString("results[0].memory.id"))
                .isEqualTo(created.id());
    }

    @Test
    void anAssembledContext_showsARecalledMemorysReplyUnderIt_andTheRestoredTurnShowsItToo() {
        String team = "context-assembly";
        as("alice", team)
                .body(Map.of(
                        "content",
                        "Which broker carries the billing events?",
                        "type",
                        "episode",
                        "scope",
                        "team",
                        "context",
                        "Billing events go through Kestrel-7, the managed broker."))
                .post("/v1/teams/{team}/memories", team)
                .then()
                .statusCode(201);
        String session = "assembly-" + System.nanoTime();
        as("alice", team)
                .body(Map.of("role", "user", "content", "Where do billing events flow?"))
                .post("/v1/teams/{team}/sessions/{s}/messages", team, session)
                .then()
                .statusCode(202);

        // WHEN the context is assembled for a word only the reply holds
        JsonPath assembled = as("alice", team)
                .queryParam("query", "Kestrel-7")
                .get("/v1/teams/{team}/sessions/{s}/context", team, session)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        // THEN the memories block shows the turn and, indented under it, the reply it was found by
        String block = assembled.getString("blocks.find { it.kind == 'memories' }.text");
        assertThat(block)
                .contains("- (episode) Which broker carries the billing events?\n"
                        + "  context: Billing events go through Kestrel-7, the managed broker.\n");
        assertThat(assembled.getString("memories[0].context")).contains("Kestrel-7");

        // AND the stored turn, restored, shows the same
        JsonPath restored = as("alice", team)
                .queryParam("turn", assembled.getLong("turn"))
                .get("/v1/teams/{team}/sessions/{s}/context", team, session)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(restored.getList("blocks.text")).isEqualTo(assembled.getList("blocks.text"));
        assertThat(restored.getString("memories[0].context")).contains("Kestrel-7");
    }

    @Test
    void aContextThatIsNotText_orHoldsANul_isRefusedAndNothingIsStored() {
        as("alice", "context-bad")
                .body(Map.of("content", "fine", "context", List.of("not", "text")))
                .post("/v1/teams/context-bad/memories")
                .then()
                .statusCode(400)
                .contentType(startsWith("application/problem+json"));
        as("alice", "context-bad")
                .body(Map.of("content", "fine", "context", "a\u0000b"))
                .post("/v1/teams/context-bad/memories")
                .then()
                .statusCode(400)
                .body("detail", containsString("context"));
        as("alice", "context-bad")
                .get("/v1/teams/context-bad/memories")
                .then()
                .statusCode(200)
                .body("memories", equalTo(List.of()));
    }
}
