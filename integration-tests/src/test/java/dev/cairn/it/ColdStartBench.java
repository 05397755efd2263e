package dev.cairn.it;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cold start that matters: from JVM start to the first answered event, for every packaged function, started as
 * Lambda's Java runtime starts it ({@link LambdaRuntime}: AWS's runtime interface client polling a local runtime API)
 * with the stack's environment pointed at dynalite, a local OpenSearch node and a Titan stand-in. Each function is
 * measured as packaged ({@code target/function.zip}: AWS adapters only) and, where built, with the embedded stack in
 * the package ({@code target/embedded-stack/function.zip}, {@code -Dembedded-stack}: the shape every function had
 * before, same configuration), the two variants alternating round by round so a busy moment of a shared machine hits
 * both. Prints package sizes and the median of the rounds; a bench, not a test (run it with {@code -Dit.test}).
 *
 * <p>{@code -Dcairn.bench.rounds=N} (default 3), {@code -Dcairn.bench.functions=recall,secret-scan} to pick some.
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class ColdStartBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path FUNCTIONS = Path.of("../functions");
    private static final String QUARKUS = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";
    private static final String DECAY = "dev.cairn.decay.DecayLambda::handleRequest";
    private static final String ISSUER = "https://issuer.bench";

    @TempDir
    Path work;

    /** One function's representative first event: what a caller (or the platform) sends it first. */
    private record Probe(String function, String handler, String event) {}

    @Test
    void coldStart_ofEveryPackagedFunction() throws Exception {
        int rounds = Integer.getInteger("cairn.bench.rounds", 3);
        List<String> only =
                List.of(System.getProperty("cairn.bench.functions", "").split(","));
        KeyPair key = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        String token = ApiGatewayEvents.token(key, ApiGatewayEvents.claims(ISSUER, "alice", List.of("bench")));
        String table = "cold-" + UUID.randomUUID().toString().substring(0, 8);
        List<Probe> probes = List.of(
                new Probe(
                        "recall",
                        QUARKUS,
                        http(
                                "POST",
                                "/v1/teams/bench/recall",
                                token,
                                "{\"query\": \"which database did we pick?\", \"top_k\": 5}")),
                new Probe(
                        "session-summarize",
                        QUARKUS,
                        http(
                                "POST",
                                "/v1/teams/bench/sessions/s1/messages",
                                token,
                                "{\"role\": \"user\", \"content\": \"We deploy on Fridays.\"}")),
                new Probe("fact-extract", QUARKUS, http("POST", "/v1/teams/bench/sessions/s1/end", token, "{}")),
                new Probe("team-sync", QUARKUS, http("GET", "/v1/teams/bench/changes", token, null)),
                new Probe(
                        "secret-scan",
                        QUARKUS,
                        http("POST", "/v1/scan", token, "{\"content\": \"deploy with the usual settings\"}")),
                new Probe("decay-job", DECAY, "{\"cairn\": \"decay-schedule\"}"),
                // an agent's first MCP message to the stateless function: the same recall, as a tool call
                new Probe(
                        "mcp",
                        QUARKUS,
                        http(
                                "POST",
                                "/mcp",
                                token,
                                "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"tools/call\", \"params\": {\"name\":"
                                        + " \"recall\", \"arguments\": {\"query\": \"which database did we pick?\","
                                        + " \"top_k\": 5}}}")),
                new Probe(
                        "stream-indexer",
                        QUARKUS,
                        "{\"Records\": [{\"eventName\": \"INSERT\", \"eventSource\": "
                                + "\"aws:dynamodb\", \"dynamodb\": {\"Keys\": {\"pk\": {\"S\": \"T#bench\"}, \"sk\": {\"S\": "
                                + "\"M#none\"}}, \"SequenceNumber\": \"1\", \"StreamViewType\": \"KEYS_ONLY\"}}]}"));

        StringBuilder report = new StringBuilder();
        report.append(String.format(
                Locale.ROOT,
                "%-18s %10s %10s %10s %12s %12s %12s %7s  %s%n",
                "function",
                "zip MB",
                "unzip MB",
                "+emb MB",
                "lean ms",
                "+emb ms",
                "lean warm",
                "ratio",
                "answer"));
        try (TitanStandIn bedrock = new TitanStandIn()) {
            Map<String, String> env = new LinkedHashMap<>(LambdaRuntime.stackEnvironment(table, bedrock.endpoint()));
            env.put("CAIRN_AUTH_ISSUER", ISSUER);
            env.put("CAIRN_AUTH_PUBLIC_KEY", ApiGatewayEvents.pem(key));
            for (Probe probe : probes) {
                if (!only.equals(List.of("")) && !only.contains(probe.function())) {
                    continue;
                }
                Path lean = FUNCTIONS.resolve(probe.function()).resolve("target/function.zip");
                Path fat = FUNCTIONS.resolve(probe.function()).resolve("target/embedded-stack/function.zip");
                List<Double> leanMs = new ArrayList<>();
                List<Double> fatMs = new ArrayList<>();
                List<Double> warmMs = new ArrayList<>();
                String answer = "";
                for (int round = 0; round < rounds; round++) {
                    Run run = run(lean, probe, env, "lean-" + round);
                    leanMs.add(run.coldMs());
                    warmMs.add(run.warmMs());
                    answer = run.answer();
                    if (Files.isRegularFile(fat)) {
                        fatMs.add(run(fat, probe, env, "fat-" + round).coldMs());
                    }
                }
                double l = median(leanMs);
                double f = fatMs.isEmpty() ? Double.NaN : median(fatMs);
                report.append(String.format(
                        Locale.ROOT,
                        "%-18s %10.1f %10.1f %10s %12.0f %12s %12.1f %7s  %s%n",
                        probe.function(),
                        Files.size(lean) / 1e6,
                        unzipped(lean) / 1e6,
                        Files.isRegularFile(fat) ? String.format(Locale.ROOT, "%.1f", unzipped(fat) / 1e6) : "-",
                        l,
                        fatMs.isEmpty() ? "-" : String.format(Locale.ROOT, "%.0f", f),
                        median(warmMs),
                        fatMs.isEmpty() ? "-" : String.format(Locale.ROOT, "%.2f", f / l),
                        answer));
                System.out.println(probe.function() + ": lean " + leanMs + " ms, embedded stack " + fatMs + " ms, warm "
                        + warmMs + " ms");
            }
        }
        System.out.println("\nCold start: JVM start -> first answered event (median of " + rounds
                + " rounds; ratio = with embedded stack / lean)\n" + report);
        Files.writeString(Path.of("target/cold-start-report.txt"), report.toString());
    }

    /** One start of a package: the first event's answer (the cold start), then a second event (warm). */
    private record Run(double coldMs, double warmMs, String answer) {}

    private Run run(Path zip, Probe probe, Map<String, String> env, String name) throws Exception {
        try (LambdaRuntime function = LambdaRuntime.start(
                zip, probe.handler(), env, Files.createDirectories(work.resolve(probe.function() + "-" + name)))) {
            LambdaRuntime.Answer first = function.invoke(probe.event(), Duration.ofMinutes(3));
            double cold = (first.arrivedNanos() - function.startedNanos()) / 1e6;
            long before = System.nanoTime();
            LambdaRuntime.Answer second = function.invoke(probe.event(), Duration.ofMinutes(1));
            double warm = (second.arrivedNanos() - before) / 1e6;
            if (first.error()) {
                throw new IllegalStateException(
                        probe.function() + " answered an error: " + first.body() + "\n" + function.tail());
            }
            return new Run(cold, warm, status(first.body()));
        }
    }

    /** The HTTP status of an API Gateway answer, or the first characters of another function's answer. */
    private static String status(String body) throws Exception {
        var node = JSON.readTree(body);
        if (node.has("statusCode")) {
            return "HTTP " + node.get("statusCode").asInt();
        }
        return body.length() > 40 ? body.substring(0, 40) + "…" : body;
    }

    /** An API Gateway HTTP API (payload 2.0) event with alice's token, as the stack's integrations deliver it. */
    private static String http(String method, String path, String token, String body) throws Exception {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("authorization", "Bearer " + token);
        headers.put("content-type", "application/json");
        // what an MCP client sends (Streamable HTTP refuses a POST that does not accept both); the API ignores it
        headers.put("accept", "application/json, text/event-stream");
        return ApiGatewayEvents.http(method, path, headers, body, null);
    }

    private static long unzipped(Path zip) throws Exception {
        try (ZipFile z = new ZipFile(zip.toFile())) {
            return z.stream().mapToLong(e -> Math.max(0, e.getSize())).sum();
        }
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
