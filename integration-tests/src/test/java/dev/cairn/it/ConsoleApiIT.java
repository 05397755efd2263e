package dev.cairn.it;

import static dev.cairn.it.SharedServer.as;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import io.restassured.path.json.JsonPath;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The two routes the web console added to the API: the end-of-session preview ({@code GET …/extract-preview}: what
 * {@code end} would extract, nothing written) and the usage ledger over time ({@code GET …/usage/series}).
 */
@ExtendWith(SharedServer.class)
class ConsoleApiIT {

    private static final String TEAM = "console-api";

    private static String base(String session) {
        return "/v1/teams/" + TEAM + "/sessions/" + session;
    }

    private static void say(String session, String text) {
        as("alice", TEAM)
                .body(Map.of("role", "user", "content", text))
                .post(base(session) + "/messages")
                .then()
                .statusCode(202);
    }

    private static List<String> memories() {
        return as("alice", TEAM)
                .queryParam("scope", "all")
                .queryParam("limit", 100)
                .get("/v1/teams/" + TEAM + "/memories")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("memories.content");
    }

    @Test
    void thePreview_shouldListWhatEndWouldExtract_writeNothing_andLeaveTheSessionOpen() {
        String s = "preview-" + System.nanoTime();
        say(s, "We deploy the billing service with Terraform.");
        say(s, "Do we prefer Gradle or Maven?");
        List<String> before = memories();

        JsonPath preview = as("alice", TEAM)
                .get(base(s) + "/extract-preview")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();

        assertThat(preview.getBoolean("ended")).isFalse();
        assertThat(preview.getList("would_extract.content", String.class))
                .anySatisfy(c -> assertThat(c).contains("Terraform"));
        assertThat(preview.getList("would_extract.type", String.class)).doesNotContainNull();
        assertThat(preview.getList("would_extract.evidence", List.class))
                .allSatisfy(e -> assertThat(e).isNotEmpty());
        assertThat(preview.getList("skipped.reason", String.class)).contains("question");
        assertThat(memories()).isEqualTo(before); // nothing written
        as("alice", TEAM).get(base(s)).then().statusCode(200).body("ended", equalTo(false));
        say(s, "Our staging cluster runs in eu-west-1."); // still open to appends

        JsonPath ended = as("alice", TEAM)
                .post(base(s) + "/end")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(ended.getList("extracted.content", String.class))
                .anySatisfy(c -> assertThat(c).contains("Terraform"));
        as("alice", TEAM)
                .get(base(s) + "/extract-preview")
                .then()
                .statusCode(200)
                .body("ended", equalTo(true))
                .body("would_extract.size()", equalTo(0));
    }

    @Test
    void anotherUsersSessionPreview_shouldBeNotFound_andABadSessionIdA400() {
        String s = "preview-own-" + System.nanoTime();
        say(s, "We deploy the billing service with Terraform.");
        as("bob", TEAM).get(base(s) + "/extract-preview").then().statusCode(404);
        as("alice", TEAM)
                .get(base("NOT_AN_ID") + "/extract-preview")
                .then()
                .statusCode(400)
                .contentType(containsString("application/problem+json"));
    }

    @Test
    void theSeries_shouldPutPostedUsageInTheCurrentHourAndDay_perModel_summingToTheTotals() {
        String s = "series-" + System.nanoTime();
        for (int i = 0; i < 2; i++) {
            as("alice", TEAM)
                    .body(Map.of(
                            "model", "claude-sonnet-4-5-20250929",
                            "input_tokens", 300,
                            "output_tokens", 400,
                            "cache_creation_input_tokens", 0,
                            "cache_read_input_tokens", 20_000))
                    .post(base(s) + "/usage")
                    .then()
                    .statusCode(204);
        }
        as("alice", TEAM)
                .body(Map.of("model", "my-local-model", "input_tokens", 50, "output_tokens", 5))
                .post(base(s) + "/usage")
                .then()
                .statusCode(204);
        Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);

        JsonPath hours = as("alice", TEAM)
                .queryParam("bucket", "hour")
                .get(base(s) + "/usage/series")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(hours.getString("bucket")).isEqualTo("hour");
        assertThat(hours.getList("points.model", String.class))
                .containsExactly("claude-sonnet-4-5-20250929", "my-local-model");
        // posted within this test: the current hour, or the next one when the test straddled an hour's end
        assertThat(Instant.parse(hours.getString("points[0].start"))).isBetween(hour, hour.plus(1, ChronoUnit.HOURS));
        assertThat(hours.getLong("points[0].requests")).isEqualTo(2);
        assertThat(hours.getLong("points[0].cache_read_input_tokens")).isEqualTo(40_000);
        assertThat(hours.getDouble("points[0].cost.saved")).isPositive();
        assertThat(hours.getMap("points[1].cost")).isNull(); // no price for that model

        JsonPath days = as("alice", TEAM)
                .queryParam("bucket", "day")
                .get(base(s) + "/usage/series")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(Instant.parse(days.getString("points[0].start")))
                .isEqualTo(Instant.parse(days.getString("points[0].start")).truncatedTo(ChronoUnit.DAYS));
        JsonPath report = as("alice", TEAM)
                .get(base(s) + "/usage")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath();
        assertThat(days.getList("points.requests", Integer.class).stream()
                        .mapToInt(Integer::intValue)
                        .sum())
                .isEqualTo(report.getInt("requests"));
        assertThat(days.getDouble("points[0].cost.saved")).isEqualTo(report.getDouble("cost.saved"));

        as("alice", TEAM)
                .queryParam("from", hour.plus(1, ChronoUnit.DAYS).toString())
                .get(base(s) + "/usage/series")
                .then()
                .statusCode(200)
                .body("points.size()", equalTo(0));
    }

    @Test
    void aBadBucketOrRange_shouldBeA400NamingTheField() {
        String s = "series-bad-" + System.nanoTime();
        as("alice", TEAM)
                .queryParam("bucket", "week")
                .get(base(s) + "/usage/series")
                .then()
                .statusCode(400)
                .contentType(containsString("application/problem+json"))
                .body("detail", containsString("bucket must be hour or day (got week)"));
        as("alice", TEAM)
                .queryParam("from", "yesterday")
                .get(base(s) + "/usage/series")
                .then()
                .statusCode(400)
                .body("detail", containsString("from must be an RFC 3339 UTC timestamp"));
        as("alice", TEAM)
                .queryParam("from", "2026-11-30T10:00:00Z")
                .queryParam("to", "2026-11-30T09:00:00Z")
                .get(base(s) + "/usage/series")
                .then()
                .statusCode(400)
                .body("detail", containsString("from must be before to"));
    }
}
