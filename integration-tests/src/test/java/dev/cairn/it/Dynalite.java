package dev.cairn.it;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * dynalite (DynamoDB's API on LevelDB, installed by npm from the module's lockfile), started once per test run on a
 * free port, in memory, through {@code dynalite-server.js} (which keeps it alive when a client disconnects
 * mid-request), and stopped when the run ends. Test classes use {@code @ExtendWith(Dynalite.class)}.
 */
public final class Dynalite implements BeforeAllCallback {

    private static volatile Process process;
    private static volatile int port;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        ensureStarted();
    }

    /** Starts dynalite unless it already runs; it stops when the test JVM exits. */
    public static synchronized void ensureStarted() throws Exception {
        if (process != null) {
            return;
        }
        Path cli = Path.of(System.getProperty("cairn.dynalite.cli", "dynalite-server.js"));
        if (!Files.exists(cli) || !Files.exists(cli.resolveSibling("node_modules/dynalite/cli.js"))) {
            throw new IllegalStateException(cli + " is missing: run npm ci in integration-tests (Maven's "
                    + "pre-integration-test phase does)");
        }
        port = Processes.freePort();
        Path log = LocalServer.workDir().resolve("dynalite.log");
        process = new ProcessBuilder("node", cli.toString(), "--port", String.valueOf(port))
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        awaitPort(log);
        Runtime.getRuntime()
                .addShutdownHook(new Thread(
                        () -> {
                            try {
                                stop();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "stop-dynalite"));
    }

    public static URI endpoint() {
        return URI.create("http://127.0.0.1:" + port);
    }

    private static void awaitPort(Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("dynalite exited with " + process.exitValue() + "; see " + log);
            }
            try (Socket ignored = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException e) {
                Thread.sleep(50);
            }
        }
        throw new IllegalStateException("dynalite did not listen within 30 s; see " + log);
    }

    private static void stop() throws InterruptedException {
        Processes.stop(process, 10);
    }

    /** A client for the running dynalite, with the SDK's standard retries (as in AWS). */
    public static DynamoDbClient client() {
        return client(new ExecutionInterceptor[0]);
    }

    /** As {@link #client()}, with {@code interceptors} on every call (a test's injected faults). */
    public static DynamoDbClient client(ExecutionInterceptor... interceptors) {
        return DynamoDbClient.builder()
                .endpointOverride(endpoint())
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD)
                        .apiCallTimeout(Duration.ofSeconds(30))
                        .executionInterceptors(java.util.List.of(interceptors))
                        .build())
                .build();
    }
}
