package dev.cairn.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The packaged local server ({@code functions/local/target/quarkus-app/quarkus-run.jar}) run as a separate process,
 * exactly as the README starts it, on a free port and its own data directory.
 */
public final class LocalServer implements AutoCloseable {

    static final Path JAR =
            Path.of(System.getProperty("cairn.local.jar", "../functions/local/target/quarkus-app/quarkus-run.jar"));

    private final Path dataDir;
    private final Path log;
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private Process process;
    private int port;
    private boolean aws = awsBackend();
    private List<String> commandPrefix = List.of();

    public LocalServer(Path dataDir) {
        this.dataDir = dataDir;
        this.log = dataDir.resolveSibling(dataDir.getFileName() + "-server.log");
    }

    public static Path workDir() throws IOException {
        Path dir = Path.of(System.getProperty("cairn.it.work", "target/it-work"));
        Files.createDirectories(dir);
        return dir;
    }

    public LocalServer start(String... jvmOptions) throws Exception {
        if (!Files.exists(JAR)) {
            throw new IllegalStateException(JAR + " is missing: build functions/local first (./mvnw install)");
        }
        port = Processes.freePort();
        List<String> cmd = new ArrayList<>(commandPrefix);
        cmd.addAll(List.of(
                java(),
                "-Xmx512m",
                "-Dcairn.data-dir=" + dataDir,
                "-Dquarkus.http.port=" + port,
                "-Dcairn.indexer.interval=200ms",
                // team "strict" rejects secrets; every other team has the default policy (redact)
                "-Dcairn.secrets.team-policy.strict=reject",
                // team "keepers" keeps both sides of a sync conflict; every other team gets 409s
                "-Dcairn.sync.team-policy.keepers=keep_both",
                // the tests run the decay job themselves (DecayIT); a background pass would race them
                "-Dcairn.decay.schedule-every=off"));
        if (aws || LocalStack.selected()) {
            cmd.addAll(awsBackendOptions());
        }
        cmd.addAll(List.of(jvmOptions));
        cmd.addAll(List.of("-jar", JAR.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("AWS_ACCESS_KEY_ID", "local");
        pb.environment().put("AWS_SECRET_ACCESS_KEY", "local");
        process = pb.start();
        awaitHealth("/q/health/live");
        return this;
    }

    /** Runs the server's command under another, e.g. {@code unshare} (the command is appended to it). */
    public LocalServer under(List<String> prefix) {
        commandPrefix = List.copyOf(prefix);
        return this;
    }

    /** The server's process id (after {@link #start}); with {@link #under} the wrapper must exec the server. */
    public long pid() {
        return process.pid();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Runs this server on the AWS adapters (dynalite, OpenSearch) whatever the run's backend. */
    public LocalServer onAwsAdapters() {
        aws = true;
        return this;
    }

    /** The OpenSearch index (and DynamoDB table) of a server on the AWS adapters. */
    public String awsResourceName() {
        return "it-"
                + dataDir.getFileName()
                        .toString()
                        .toLowerCase(java.util.Locale.ROOT)
                        .replaceAll("[^a-z0-9-]", "-");
    }

    /**
     * Whether this run tests the AWS adapters: system property {@code cairn.it.backend=aws} (the second failsafe
     * execution) runs the same API tests against DynamoDB (dynalite) and OpenSearch (a local node) instead of the
     * embedded default.
     */
    public static boolean awsBackend() {
        return "aws".equals(System.getProperty("cairn.it.backend", "embedded"));
    }

    /** A table and an index named after the data directory: a restarted server finds its own data again. */
    private List<String> awsBackendOptions() throws Exception {
        String name = awsResourceName();
        if (LocalStack.selected() && !aws) {
            // DynamoDB and S3 on LocalStack (skips the test where there is no Docker engine), the index on the local
            // node
            URI localstack = LocalStack.endpoint();
            LocalStack.ensureBucket(name);
            OpenSearchNode.ensureStarted();
            return List.of(
                    "-Dcairn.aws.s3.endpoint=" + localstack,
                    "-Dcairn.aws.s3.bucket=" + name,
                    "-Dcairn.backend.record-store=dynamodb",
                    "-Dcairn.backend.vector-index=opensearch",
                    "-Dcairn.aws.region=us-east-1",
                    "-Dcairn.aws.dynamodb.endpoint=" + localstack,
                    "-Dcairn.aws.dynamodb.table=" + name,
                    "-Dcairn.aws.dynamodb.create-table=true",
                    "-Dcairn.aws.opensearch.url=" + OpenSearchNode.url(),
                    "-Dcairn.aws.opensearch.index=" + name,
                    "-Dcairn.aws.opensearch.shards=1",
                    "-Dcairn.aws.opensearch.replicas=0");
        }
        Dynalite.ensureStarted();
        OpenSearchNode.ensureStarted();
        return List.of(
                "-Dcairn.backend.record-store=dynamodb",
                "-Dcairn.backend.vector-index=opensearch",
                "-Dcairn.aws.region=us-east-1",
                "-Dcairn.aws.dynamodb.endpoint=" + Dynalite.endpoint(),
                "-Dcairn.aws.dynamodb.table=" + name,
                "-Dcairn.aws.dynamodb.create-table=true",
                "-Dcairn.aws.opensearch.url=" + OpenSearchNode.url(),
                "-Dcairn.aws.opensearch.index=" + name,
                "-Dcairn.aws.opensearch.shards=1",
                "-Dcairn.aws.opensearch.replicas=0");
    }

    /** Waits until the given health endpoint answers 200 (liveness: the server runs; readiness: it can serve). */
    public void awaitHealth(String path) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("local server exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(baseUrl() + path))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("local server not ready within 90 s; see " + log);
    }

    public void stop() throws InterruptedException {
        Processes.stop(process, 30);
    }

    /** kill -9: no shutdown hook runs, nothing is flushed. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor();
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }

    public String baseUrl() {
        return "http://127.0.0.1:" + port;
    }

    public Path dataDir() {
        return dataDir;
    }

    /** Mints a token with the runnable jar's own {@code token} command, as the README tells users to. */
    public String token(String user, String... teams) {
        String key = user + "|" + String.join(",", teams);
        return tokens.computeIfAbsent(key, k -> mint(dataDir, user, teams));
    }

    public static String mint(Path dataDir, String user, String... teams) {
        List<String> cmd = new ArrayList<>(List.of(java(), "-jar", JAR.toString(), "token", "--user", user));
        for (String t : teams) {
            cmd.add("--team");
            cmd.add(t);
        }
        cmd.add("--data-dir");
        cmd.add(dataDir.toString());
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (p.waitFor() != 0) {
                throw new IllegalStateException("token command failed: " + err);
            }
            return out;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String java() {
        return Processes.java();
    }
}
