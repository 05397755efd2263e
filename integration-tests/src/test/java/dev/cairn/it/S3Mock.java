package dev.cairn.it;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Adobe S3Mock (its runnable jar from Maven Central) started once per test run as a separate JVM on free ports, and
 * stopped when the run ends. Test classes use {@code @ExtendWith(S3Mock.class)}.
 */
public final class S3Mock implements BeforeAllCallback {

    private static volatile Process process;
    private static volatile int port;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        synchronized (S3Mock.class) {
            if (process != null) {
                return;
            }
            Path jar = Path.of(System.getProperty("cairn.s3mock.jar", "target/stand-ins/s3mock-exec.jar"));
            if (!Files.exists(jar)) {
                throw new IllegalStateException(jar + " is missing: Maven's pre-integration-test phase copies it");
            }
            port = Processes.freePort();
            int httpsPort = Processes.freePort();
            Path log = LocalServer.workDir().resolve("s3mock.log");
            process = new ProcessBuilder(
                            Processes.java(),
                            "-Xmx256m",
                            "-jar",
                            jar.toString(),
                            "--com.adobe.testing.s3mock.httpPort=" + port,
                            "--server.port=" + httpsPort,
                            "--server.address=127.0.0.1")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            awaitReady(log);
            context.getRoot()
                    .getStore(ExtensionContext.Namespace.GLOBAL)
                    .put("cairn-s3mock", (ExtensionContext.Store.CloseableResource) S3Mock::stop);
        }
    }

    private static void awaitReady(Path log) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("S3Mock exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<Void> r = http.send(
                        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/"))
                                .timeout(Duration.ofSeconds(2))
                                .build(),
                        HttpResponse.BodyHandlers.discarding());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (java.io.IOException e) {
                // not listening yet
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("S3Mock not ready within 90 s; see " + log);
    }

    private static void stop() throws InterruptedException {
        Processes.stop(process, 20);
    }

    /** A path-style client for the running S3Mock. */
    public static S3Client client() {
        return S3Client.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + port))
                .region(Region.US_EAST_1)
                .forcePathStyle(true)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("local", "local")))
                .httpClient(UrlConnectionHttpClient.create())
                .build();
    }
}
