package dev.cairn.decay;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.cairn.http.testing.TestIssuer;
import dev.cairn.model.decay.ScheduledDecay;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.testkit.Memories;
import io.quarkus.test.common.QuarkusTestResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The decay function as deployed: the schedule's entry point over every team, and the HTTP routes through Quarkus'
 * mock event server (API Gateway HTTP API events), on the embedded stores.
 */
@QuarkusTest
@QuarkusTestResource(TestIssuer.class)
class DecayLambdaTest {

    @Inject
    MemoryStore store;

    @Inject
    DecaySchedule schedule;

    private Id seedFaded(String team) {
        Id id = new Id("m" + UUID.randomUUID().toString().substring(0, 8));
        store.insertAll(List.of(Memories.memory()
                .id(id)
                .team(team)
                .content("The 2019 offsite was in Porto")
                .importance(0.2)
                .confidence(0.9)
                .createdAt(Instant.now().minus(Duration.ofDays(500)))
                .build()));
        return id;
    }

    @Test
    void theScheduleEvent_shouldBeTold_fromAnApiGatewayEvent() {
        assertThat(DecaySchedule.isScheduleEvent("{\"cairn\":\"decay-schedule\"}".getBytes(StandardCharsets.UTF_8)))
                .isTrue();
        for (String other : List.of(
                "{\"version\":\"2.0\",\"routeKey\":\"POST /v1/teams/{team}/decay:run\"}",
                "{\"cairn\":\"something-else\"}",
                "[]",
                "not json",
                "")) {
            assertThat(DecaySchedule.isScheduleEvent(other.getBytes(StandardCharsets.UTF_8)))
                    .as(other)
                    .isFalse();
        }
    }

    @Test
    void aScheduledRun_shouldArchiveFadedMemoriesOfEveryTeam_andEndThePass() {
        Id a = seedFaded("sched-a");
        Id b = seedFaded("sched-b");
        ScheduledDecay.Outcome o = schedule.run(Duration.ofMinutes(5));
        assertThat(o.passEnded()).isTrue();
        assertThat(o.archived()).isGreaterThanOrEqualTo(2);
        assertThat(store.get(new Id("sched-a"), a).orElseThrow().state()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(store.get(new Id("sched-b"), b).orElseThrow().state()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(store.decayCursor()).hasValueSatisfying(c -> assertThat(c).startsWith("D "));
        // the next invocation within the day: nothing to do
        assertThat(schedule.run(Duration.ofMinutes(5)).idle()).isTrue();
    }

    @Test
    void theRoutes_shouldRunTheJobForOneTeam_andRestore_asApiGatewayEvents() {
        Id id = seedFaded("routes");
        String token = TestIssuer.token("alice", "routes");
        // a body on a route that reads none is refused, and the job does not run
        given().header("Authorization", "Bearer " + token)
                .contentType("application/json")
                .body("{\"dry_run\": true}")
                .post("/v1/teams/routes/decay:run")
                .then()
                .statusCode(400)
                .body("detail", containsString("dry_run"));
        given().header("Authorization", "Bearer " + token)
                .post("/v1/teams/routes/decay:run")
                .then()
                .statusCode(200)
                .body("archived", equalTo(1))
                .body("resume_after", equalTo(null));
        given().header("Authorization", "Bearer " + token)
                .post("/v1/teams/routes/memories/" + id.value() + ":restore")
                .then()
                .statusCode(200)
                .body("state", equalTo("active"))
                .body("content", equalTo("The 2019 offsite was in Porto"));
        given().header("Authorization", "Bearer " + TestIssuer.token("mallory", "elsewhere"))
                .post("/v1/teams/routes/decay:run")
                .then()
                .statusCode(403);
    }
}
