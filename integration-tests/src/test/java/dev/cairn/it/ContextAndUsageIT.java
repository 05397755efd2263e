package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;

import io.restassured.path.json.JsonPath;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Context assembly with its prompt-cache plan, snapshots by turn, and the usage ledger, through the API. */
@ExtendWith(SharedServer.class)
class ContextAndUsageIT {

    private static final String TEAM = "context";
    private static final String SYSTEM = "You are the release assistant of the Falcon project. ".repeat(90);

    private static String base(String session) {
        return "/v1/teams/" + TEAM + "/sessions/" + session;
    }

    private static void say(String session, String role, String text) {
        as("alice", TEAM)
                .body(Map.of("role", role, "content", text))
                .post(base(session) + "/messages")
                .then()
                .statusCode(202);
    }

    private static JsonPath context(String session, String query) {
        return as("alice", TEAM)
                .queryParam("query", query)
                .get(base(session) + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
    }

    private static void prefix(String session) {
        as("alice", TEAM)
                .body(Map.of(
                        "system",
                        SYSTEM,
                        "model",
                        "claude-sonnet-4-5-20250929",
                        "tools",
                        List.of(Map.of(
                                "name",
                                "read_file",
                                "description",
                                "Reads a file",
                                "input_schema",
                                Map.of("type", "object", "properties", Map.of("path", Map.of("type", "string")))))))
                .put(base(session) + "/context/prefix")
                .then()
                .statusCode(204);
    }

    @Test
    void theNextTurn_shouldKeepTheCachedPrefixByteIdentical_andPlanAtMostFourBreakpoints() {
        String s = "ctx-" + System.nanoTime();
        as("alice", TEAM)
                .body(Map.of("content", "Falcon releases are cut on Thursdays.", "type", "convention", "scope", "team"))
                .post("/v1/teams/" + TEAM + "/memories")
                .then()
                .statusCode(201);
        prefix(s);
        say(s, "user", "Prepare the Falcon 2.4 release notes.");
        say(s, "assistant", "Drafting them now.");
        JsonPath first = context(s, "Falcon release day");
        say(s, "user", "Add the migration note for PostgreSQL 17.");
        JsonPath second = context(s, "Falcon release day");

        // one block per message, as in a Messages request
        assertThat(first.getList("blocks.kind")).containsExactly("system", "tools", "memories", "messages", "messages");
        for (int i = 0; i < 3; i++) { // system, tools, memories: same bytes, same breakpoints
            assertThat(second.getString("blocks[" + i + "].text")).isEqualTo(first.getString("blocks[" + i + "].text"));
            assertThat(second.getMap("blocks[" + i + "].cache_control"))
                    .isEqualTo(first.getMap("blocks[" + i + "].cache_control"));
        }
        assertThat(first.getString("blocks[2].text")).contains("Falcon releases are cut on Thursdays.");
        assertThat(second.getList("blocks.text", String.class))
                .last()
                .isEqualTo("user: Add the migration note for PostgreSQL 17.\n");
        assertThat(second.getMap("blocks[5].cache_control")).containsEntry("type", "ephemeral");
        assertThat(second.getMap("blocks[3].cache_control")).isNull(); // only the last message closes the prefix
        assertThat(second.getInt("prompt_cache.breakpoints")).isBetween(1, 4);
        assertThat(second.getString("blocks[1].cache_control.ttl")).isEqualTo("1h");
        assertThat(second.getString("prompt_cache.ttl")).isEqualTo("1h");
        assertThat(second.getInt("prompt_cache.min_cacheable_tokens")).isEqualTo(1024);
        assertThat(second.getInt("prompt_cache.stable_prefix_tokens")).isGreaterThanOrEqualTo(1024);
        // 1-hour breakpoints come before 5-minute ones
        List<Map<String, String>> controls = second.getList("blocks.cache_control");
        boolean seenFiveMinutes = false;
        for (Map<String, String> c : controls) {
            if (c != null) {
                assertThat(seenFiveMinutes && "1h".equals(c.get("ttl"))).isFalse();
                seenFiveMinutes |= !"1h".equals(c.get("ttl"));
            }
        }

        // the first context is still there, by turn, exactly as it was
        JsonPath restored = as("alice", TEAM)
                .queryParam("turn", first.getLong("turn"))
                .get(base(s) + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(restored.getList("blocks.text")).isEqualTo(first.getList("blocks.text"));
        as("alice", TEAM)
                .queryParam("turn", 999)
                .get(base(s) + "/context")
                .then()
                .statusCode(404);
    }

    @Test
    void aPreviewWithSnapshotFalse_shouldLeaveTheTurnsSnapshotAsItWasAssembled() {
        String s = "ctx-probe-" + System.nanoTime();
        prefix(s);
        say(s, "user", "Summarise the Falcon 2.4 changes for the changelog.");
        say(s, "assistant", "Here is a first draft of the changelog.");
        JsonPath sent = context(s, "Falcon changelog");
        // a budget probe after the real call, as a client sizing its next request would do: room for the prefix only
        int prefixOnly = sent.getInt("blocks[0].tokens") + sent.getInt("blocks[1].tokens") + 1;
        JsonPath probe = as("alice", TEAM)
                .queryParam("max_tokens", prefixOnly)
                .queryParam("snapshot", "false")
                .get(base(s) + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(probe.getLong("turn")).isEqualTo(sent.getLong("turn"));
        assertThat(probe.getList("blocks.text")).isNotEqualTo(sent.getList("blocks.text"));
        JsonPath restored = as("alice", TEAM)
                .queryParam("turn", sent.getLong("turn"))
                .get(base(s) + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(restored.getList("blocks.text")).isEqualTo(sent.getList("blocks.text"));
        // without snapshot=false the same probe replaces the turn's snapshot, as before
        as("alice", TEAM)
                .queryParam("max_tokens", prefixOnly)
                .get(base(s) + "/context")
                .then()
                .statusCode(200);
        assertThat(as("alice", TEAM)
                        .queryParam("turn", sent.getLong("turn"))
                        .get(base(s) + "/context")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("blocks.text"))
                .isEqualTo(probe.getList("blocks.text"));
        as("alice", TEAM)
                .queryParam("snapshot", "no")
                .get(base(s) + "/context")
                .then()
                .statusCode(400)
                .body("detail", containsString("true or false"));
        as("alice", TEAM)
                .queryParam("turn", sent.getLong("turn"))
                .queryParam("snapshot", "false")
                .get(base(s) + "/context")
                .then()
                .statusCode(400)
                .body("detail", containsString("turn"));
    }

    @Test
    void aSmallBudget_shouldDropTheOldestMessagesFirst_andABudgetBelowThePrefixIsRefused() {
        String s = "trim-" + System.nanoTime();
        prefix(s);
        for (int i = 1; i <= 12; i++) {
            say(s, i % 2 == 1 ? "user" : "assistant", "Message number " + i + " about the Falcon rollout plan.");
        }
        JsonPath full = context(s, "rollout");
        int fullTokens = full.getList("blocks.tokens", Integer.class).stream()
                .mapToInt(Integer::intValue)
                .sum();
        JsonPath trimmed = as("alice", TEAM)
                .queryParam("max_tokens", fullTokens - 40)
                .get(base(s) + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        String messages =
                String.join("", trimmed.getList("blocks.findAll { it.kind == 'messages' }.text", String.class));
        assertThat(messages).contains("Message number 12").doesNotContain("Message number 1 ");
        assertThat(trimmed.getList("blocks.tokens", Integer.class).stream()
                        .mapToInt(Integer::intValue)
                        .sum())
                .isLessThanOrEqualTo(fullTokens - 40);
        // a budget of exactly what the full context takes keeps all of it: nothing is held back unseen
        JsonPath exact = as("alice", TEAM)
                .queryParam("query", "rollout")
                .queryParam("max_tokens", fullTokens)
                .get(base(s) + "/context")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(exact.getList("blocks.text")).isEqualTo(full.getList("blocks.text"));
        // a restore replays a stored turn: a budget or a query beside the turn would be ignored, so it is refused
        as("alice", TEAM)
                .queryParam("turn", full.getLong("turn"))
                .queryParam("max_tokens", 10)
                .get(base(s) + "/context")
                .then()
                .statusCode(400)
                .body("detail", containsString("turn"));
        as("alice", TEAM)
                .queryParam("max_tokens", 100)
                .get(base(s) + "/context")
                .then()
                .statusCode(400)
                .body("errors.field", hasItem("max_tokens"));
        as("alice", TEAM)
                .queryParam("max_tokens", "lots")
                .get(base(s) + "/context")
                .then()
                .statusCode(400);
    }

    @Test
    void aSecretInTheSystemPrompt_shouldBeRedacted_andInTheToolsRefused() {
        String s = "secret-" + System.nanoTime();
        as("alice", TEAM)
                .body(Map.of(
                        "system",
                        "Deploy with token ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI always.",
                        "model",
                        "claude-sonnet-4-5"))
                .put(base(s) + "/context/prefix")
                .then()
                .statusCode(204);
        say(s, "user", "hello");
        String system = context(s, "deploy").getString("blocks[0].text");
        assertThat(system).contains("[REDACTED:").doesNotContain("ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI");
        as("alice", TEAM)
                .body(Map.of(
                        "system",
                        "x",
                        "tools",
                        List.of(Map.of(
                                "name", "deploy", "description", "uses ghp_R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI"))))
                .put(base(s) + "/context/prefix")
                .then()
                .statusCode(422);
        as("alice", TEAM)
                .body(Map.of("tools", "not a list"))
                .put(base(s) + "/context/prefix")
                .then()
                .statusCode(400);
    }

    @Test
    void theLedger_shouldReportHitRatioAndCostWithAndWithoutCaching() {
        String s = "usage-" + System.nanoTime();
        String model = "claude-sonnet-4-5-20250929";
        record(
                s,
                Map.of(
                        "model",
                        model,
                        "input_tokens",
                        200,
                        "output_tokens",
                        500,
                        "cache_creation_input_tokens",
                        20000,
                        "cache_read_input_tokens",
                        0),
                204);
        record(
                s,
                Map.of(
                        "model",
                        model,
                        "input_tokens",
                        300,
                        "output_tokens",
                        400,
                        "cache_creation_input_tokens",
                        0,
                        "cache_read_input_tokens",
                        20000),
                204);
        JsonPath r = as("alice", TEAM)
                .get(base(s) + "/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(r.getInt("requests")).isEqualTo(2);
        assertThat(r.getInt("totals.cache_read_input_tokens")).isEqualTo(20000);
        assertThat(r.getDouble("cache_hit_ratio")).isCloseTo(20000.0 / 40500, within(1e-6));
        // $3 / $15 per million: actual = 500×3 + 900×15 + 20000×3×1.25 + 20000×3×0.1, without = 40500×3 + 900×15
        assertThat(r.getDouble("cost.actual")).isCloseTo((1500 + 13500 + 75000 + 6000) / 1e6, within(1e-6));
        assertThat(r.getDouble("cost.without_cache")).isCloseTo((121500 + 13500) / 1e6, within(1e-6));
        assertThat(r.getDouble("cost.saved")).isCloseTo((121500 - 82500) / 1e6, within(1e-6));

        record(s, Map.of("model", model, "input_tokens", -1, "output_tokens", 5), 400);
        record(s, Map.of("model", model, "input_tokens", 1, "output_tokens", 50_000_000), 400);
        record(s, Map.of("input_tokens", 1, "output_tokens", 5), 400);
        record(s, Map.of("model", "bad model id!", "input_tokens", 1, "output_tokens", 5), 400);
        as("alice", TEAM).get(base(s) + "/usage").then().statusCode(200).body("requests", equalTo(2));
    }

    private static void record(String session, Map<String, Object> usage, int status) {
        as("alice", TEAM).body(usage).post(base(session) + "/usage").then().statusCode(status);
    }
}
