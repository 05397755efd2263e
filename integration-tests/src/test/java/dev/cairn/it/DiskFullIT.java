package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The whole packaged server on a data directory that really fills up (a small tmpfs, ENOSPC from the kernel): writes
 * fail with 503 problem+json and {@code Retry-After} and store nothing, and once the space is freed writes and recall
 * work again in the same process, with no restart. Issue 17, item 3 (recall answered 500 "this IndexWriter is closed"
 * until a restart, while health said UP).
 *
 * <p>Embedded backend only: on the AWS adapters the data directory holds no store.
 */
class DiskFullIT {

    private static final String TEAM = "acme";
    private static final String SESSION = "disk-full";

    @Test
    void writesAnswer503WhileTheDataDirectoryIsFull_andRecallRecoversWithoutARestart_onceSpaceIsFreed()
            throws Exception {
        assumeTrue(!LocalServer.awsBackend(), "the AWS adapters keep nothing in the data directory");
        StringBuilder why = new StringBuilder();
        SmallDisk disk = SmallDisk.create(LocalServer.workDir(), "8m", "index", "4m", why);
        assumeTrue(
                disk != null,
                () -> "no size-limited filesystem on this machine, so the full-disk test cannot run: " + why);
        Path mountPoint = disk.serverPath();
        try (disk;
                LocalServer server = new LocalServer(mountPoint).under(disk.serverCommandPrefix())) {
            server.start();
            disk.serverStarted(server.pid());
            server.awaitHealth("/q/health/ready");
            long pid = server.pid();
            Path data = disk.testPath();
            String token = LocalServer.mint(data, "alice", TEAM);
            RequestSpecification api = RestAssured.given()
                    .baseUri(server.baseUrl())
                    .header("Authorization", "Bearer " + token)
                    .contentType(ContentType.JSON);

            String before = create(api, "The staging database runs PostgreSQL 16")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            assertThat(recallIds(api, "Which database does staging run?")).contains(before);
            append(api, "We agreed to keep the staging database on PostgreSQL 16.")
                    .then()
                    .statusCode(202);

            // GIVEN the index's filesystem is full while the record store still has room: the case of issue 17, where
            // the failed index write closed Lucene's writer for good (recall 500 until a restart, readiness UP)
            Path indexBallast = data.resolve("index").resolve("ballast");
            assertThat(disk.fill(indexBallast)).isPositive();
            // WHEN a memory is written: the store takes it (201), its indexing fails and is left pending
            String whileIndexFull = create(api, "The Orion release train leaves every second Tuesday")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            Thread.sleep(1000); // some failed catch-up rounds of the poller (every 200 ms)
            // THEN recall still answers 200 from the last commit (also while the poller's failing writes roll the
            // writer back beside it), and readiness stays UP: the writer reopens on the last commit, which needs no
            // space (the branch where it cannot reopen is LuceneDiskFullTest's)
            assertThat(recallIds(api, "Which database does staging run?")).contains(before);
            Response readyWhileIndexFull =
                    RestAssured.given().baseUri(server.baseUrl()).get("/q/health/ready");
            System.out.println("DiskFullIT: readiness while the index's filesystem is full: "
                    + readyWhileIndexFull.statusCode() + " " + readyWhileIndexFull.asString());
            assertThat(readyWhileIndexFull.statusCode())
                    .as(readyWhileIndexFull.asString())
                    .isEqualTo(200);

            // GIVEN now the whole data directory's filesystem is full too (a ballast file took every free page)
            Path ballast = data.resolve("ballast");
            long ballastBytes = disk.fill(ballast);
            assertThat(ballastBytes).as("ballast written on " + disk.how()).isPositive();

            // WHEN memories are written: the first ones may still fit in space SQLite's WAL already holds, so write
            // until the store needs a new page, and at most a few times
            List<String> acknowledged = new ArrayList<>();
            String refused = null;
            Response failure = null;
            for (int i = 0; i < 20 && failure == null; i++) {
                String content = "Deploy note " + i + ": the Kestrel cluster drains its queue before midnight. "
                        + "x".repeat(8000);
                Response r = create(api, content);
                if (r.statusCode() == 201) {
                    acknowledged.add(r.path("id"));
                } else {
                    failure = r;
                    refused = content;
                }
            }

            // THEN the write is refused as an outage: 503 problem+json with Retry-After and a useful detail
            assertThat(failure)
                    .as("no write failed on a full disk; acknowledged %s", acknowledged)
                    .isNotNull();
            assertThat(failure.statusCode()).as(failure.asString()).isEqualTo(503);
            assertThat(failure.contentType()).startsWith("application/problem+json");
            assertThat(Long.parseLong(failure.header("Retry-After"))).isPositive();
            assertThat((Integer) failure.path("status")).isEqualTo(503);
            assertThat((String) failure.path("detail")).contains("storage is full");
            // AND nothing of the refused write is stored
            assertThat(listedContents(api)).doesNotContain(refused);
            // AND recall still answers (reads need no space; recording the access is best effort)
            assertThat(recallIds(api, "Which database does staging run?")).contains(before);
            // AND readiness names the index's trouble if it goes DOWN, and never errs
            Response readyWhileFull =
                    RestAssured.given().baseUri(server.baseUrl()).get("/q/health/ready");
            System.out.println("DiskFullIT: readiness while the data directory is full: " + readyWhileFull.statusCode()
                    + " " + readyWhileFull.asString());
            assertThat(readyWhileFull.statusCode())
                    .as(readyWhileFull.asString())
                    .isIn(200, 503);
            if (readyWhileFull.statusCode() == 503) {
                assertThat(readyWhileFull.asString()).contains("\"index\"");
            }

            // AND a session append is refused alike, and stores nothing
            List<String> appended = new ArrayList<>();
            Response appendFailure = null;
            for (int i = 0; i < 20 && appendFailure == null; i++) {
                String content = "Session note " + i + " " + "z".repeat(8000);
                Response r = append(api, content);
                if (r.statusCode() == 202) {
                    appended.add(content);
                } else {
                    appendFailure = r;
                }
            }
            assertThat(appendFailure).as("no append failed on a full disk").isNotNull();
            assertThat(appendFailure.statusCode()).as(appendFailure.asString()).isEqualTo(503);
            assertThat(appendFailure.contentType()).startsWith("application/problem+json");
            assertThat(appendFailure.header("Retry-After")).isNotBlank();

            // WHEN the space is freed — the same process, no restart
            Files.delete(ballast);
            Files.delete(indexBallast);

            // THEN the session takes messages again, and holds exactly the acknowledged ones
            append(api, "The session goes on after the disk was freed.").then().statusCode(202);
            assertThat((Integer) session(api).path("message_count")).isEqualTo(appended.size() + 2);

            // THEN a write succeeds
            String after = create(api, "The Lynx service moves to the new cluster on Thursday")
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id");
            // AND recall answers 200 with it, and with every memory acknowledged while the disk was full (the
            // catch-up poller indexes what the full disk left pending)
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            List<String> found = recallIds(api, "When does the Lynx service move?");
            while (!found.contains(after) && System.nanoTime() < deadline) {
                Thread.sleep(200);
                found = recallIds(api, "When does the Lynx service move?");
            }
            assertThat(found).as("recall after space returned").first().isEqualTo(after);
            // AND the memory written while the index was full is recalled first for its question
            awaitRecalled(api, "When does the Orion release train leave?", whileIndexFull, deadline);
            assertThat(recallIds(api, "When does the Orion release train leave?"))
                    .first()
                    .isEqualTo(whileIndexFull);
            for (String id : acknowledged) {
                awaitRecalled(api, "When does the Kestrel cluster drain its queue?", id, deadline);
            }
            // AND the server is ready, and it is the same process as before
            RestAssured.given()
                    .baseUri(server.baseUrl())
                    .get("/q/health/ready")
                    .then()
                    .statusCode(200);
            assertThat(server.isAlive()).isTrue();
            assertThat(server.pid()).isEqualTo(pid);
        } finally {
            assertThat(SmallDisk.mounted(mountPoint))
                    .as("the tmpfs is unmounted")
                    .isFalse();
        }
    }

    private static Response create(RequestSpecification api, String content) {
        return RestAssured.given()
                .spec(api)
                .body(Map.of("content", content, "scope", "team"))
                .post("/v1/teams/{team}/memories", TEAM);
    }

    private static Response append(RequestSpecification api, String content) {
        return RestAssured.given()
                .spec(api)
                .body(Map.of("role", "user", "content", content))
                .post("/v1/teams/{team}/sessions/{session}/messages", TEAM, SESSION);
    }

    private static Response session(RequestSpecification api) {
        return RestAssured.given().spec(api).get("/v1/teams/{team}/sessions/{session}", TEAM, SESSION);
    }

    private static Response recall(RequestSpecification api, String query) {
        return RestAssured.given()
                .spec(api)
                .body(Map.of("query", query, "top_k", 20))
                .post("/v1/teams/{team}/recall", TEAM);
    }

    private static List<String> recallIds(RequestSpecification api, String query) {
        Response r = recall(api, query);
        assertThat(r.statusCode()).as(r.asString()).isEqualTo(200);
        return r.path("results.memory.id");
    }

    private static void awaitRecalled(RequestSpecification api, String query, String id, long deadline)
            throws InterruptedException {
        List<String> found = recallIds(api, query);
        while (!found.contains(id) && System.nanoTime() < deadline) {
            Thread.sleep(200);
            found = recallIds(api, query);
        }
        assertThat(found)
                .as("memory %s acknowledged while the disk was full is recalled", id)
                .contains(id);
    }

    private static List<String> listedContents(RequestSpecification api) {
        return RestAssured.given()
                .spec(api)
                .queryParam("limit", 100)
                .get("/v1/teams/{team}/memories", TEAM)
                .then()
                .statusCode(200)
                .extract()
                .path("memories.content");
    }
}
