package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

/**
 * The console's first-page bench (not a test: run it on purpose, see the README's console section). A fresh local
 * server, one team holding {@code cairn.bench.memories} (10,000) memories made from the user turns of a public
 * conversation set (BEAM 500K, {@code cairn.bench.dataset}; each turn cut to about 300 characters, the size the cost
 * sketch assumes), written through {@code memories:batch}. Then {@code src/test/js/console-bench.mjs} opens the
 * console in headless Chromium again and again and reports the first page's load time beside the API's own list call
 * timed in the same browser, same run. Writes {@code target/console-bench.json}.
 */
@DisabledIfSystemProperty(named = "cairn.it.backend", matches = "aws")
class ConsoleBench {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void consoleFirstPage_versus_apiListCall() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(ConsoleIT.CHROMIUM), "needs /usr/bin/chromium");
        int n = Integer.getInteger("cairn.bench.memories", 10_000);
        Path dataset = Path.of(
                System.getProperty("cairn.bench.dataset", "/work/shared/datasets/beam_500K/conversations.jsonl.gz"));
        Assumptions.assumeTrue(Files.exists(dataset), "needs the conversation set " + dataset);
        List<String> texts = userTurns(dataset, n);
        assertThat(texts).hasSize(n);

        // -Dcairn.bench.reuse=<data dir of an earlier run>: measure again without seeding again (half an hour on 2
        // shared cores)
        String reuse = System.getProperty("cairn.bench.reuse");
        Path data = reuse == null
                ? Files.createTempDirectory(LocalServer.workDir(), "console-bench-")
                : Path.of(reuse).toAbsolutePath();
        try (LocalServer server = new LocalServer(data).start()) {
            server.awaitHealth("/q/health/ready");
            String team = "bench";
            String token = server.token("cora", team);
            long t0 = System.nanoTime();
            for (int i = 0; reuse == null && i < texts.size(); i += 500) {
                List<Map<String, Object>> batch = new ArrayList<>();
                for (String t : texts.subList(i, Math.min(texts.size(), i + 500))) {
                    batch.add(Map.of("content", t, "type", "fact", "scope", "team"));
                }
                List<String> statuses = RestAssured.given()
                        .baseUri(server.baseUrl())
                        .header("Authorization", "Bearer " + token)
                        .contentType(ContentType.JSON)
                        .body(Map.of("memories", batch))
                        .post("/v1/teams/" + team + "/memories:batch")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("results.status");
                assertThat(statuses).containsOnly("created");
            }
            System.out.printf(
                    "%s %,d memories in %.1f s (data: %s)%n",
                    reuse == null ? "seeded" : "reused", n, (System.nanoTime() - t0) / 1e9, data);

            Path report = Path.of("target/console-bench.json").toAbsolutePath();
            ProcessBuilder pb = new ProcessBuilder("node", "src/test/js/console-bench.mjs").redirectErrorStream(true);
            pb.environment()
                    .putAll(Map.of(
                            "CAIRN_URL", server.baseUrl(),
                            "CAIRN_TOKEN", token,
                            "CAIRN_TEAM", team,
                            "CAIRN_MEMORIES", String.valueOf(n),
                            "CAIRN_RUNS", System.getProperty("cairn.bench.loads", "30"),
                            "CAIRN_REPORT", report.toString()));
            Process p = pb.start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(10, TimeUnit.MINUTES)).isTrue();
            System.out.println(out);
            assertThat(p.exitValue()).as(out).isZero();
        }
    }

    /** The first {@code n} user turns of the set, each cut at a word boundary near 300 characters. */
    static List<String> userTurns(Path file, int n) throws Exception {
        List<String> out = new ArrayList<>(n);
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(file)), StandardCharsets.UTF_8))) {
            String line;
            while (out.size() < n && (line = r.readLine()) != null) {
                for (JsonNode session : JSON.readTree(line).path("sessions")) {
                    for (JsonNode turn : session.path("turns")) {
                        if (out.size() < n && "user".equals(turn.path("role").asText())) {
                            String text = turn.path("content").asText().strip();
                            if (text.length() > 300) {
                                int cut = text.lastIndexOf(' ', 300);
                                text = text.substring(0, cut > 200 ? cut : 300);
                            }
                            if (!text.isBlank()) {
                                out.add(text);
                            }
                        }
                    }
                }
            }
        }
        return out;
    }
}
