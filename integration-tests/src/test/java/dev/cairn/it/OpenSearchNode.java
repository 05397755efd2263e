package dev.cairn.it;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * OpenSearch 2.19.1 with the k-NN plugin, the stand-in for OpenSearch Serverless, started once per test run.
 *
 * <p>Maven's pre-integration-test phase fetches the pieces from Maven Central (the minimal distribution, the k-NN
 * plugin zip, the jars of lang-painless, which k-NN extends and the minimal distribution lacks). This class assembles a
 * node from them in a fresh folder, installs k-NN with {@code bin/opensearch-plugin}, and starts it on free ports
 * with a 512 MB heap. OpenSearch refuses to run as root, so when the tests run as root (CI does) the node runs as an
 * unprivileged system user, created if missing. {@link #stopNode()} and {@link #startNode()} let a test take the node
 * away and bring it back on the same port with the same data.
 */
public final class OpenSearchNode implements BeforeAllCallback {

    private static final String VERSION = "2.19.1";
    private static final String RUN_AS = "cairn-opensearch";

    private static Path home;
    private static volatile Process process;
    private static int httpPort;
    private static int transportPort;

    @Override
    public void beforeAll(ExtensionContext context) throws Exception {
        ensureStarted();
    }

    /** Starts the node unless it already runs; it stops when the test JVM exits. */
    public static synchronized void ensureStarted() throws Exception {
        if (home == null) {
            home = assemble();
            httpPort = Processes.freePort();
            transportPort = Processes.freePort();
            Runtime.getRuntime()
                    .addShutdownHook(new Thread(
                            () -> {
                                try {
                                    stopNode();
                                    deleteTree(home); // about 100 MB per run in the temporary folder
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                } catch (IOException e) {
                                    System.err.println("could not delete " + home + ": " + e);
                                }
                            },
                            "stop-opensearch"));
        }
        if (process == null || !process.isAlive()) {
            startNode();
        }
    }

    public static String url() {
        return "http://127.0.0.1:" + httpPort;
    }

    private static Path assemble() throws Exception {
        Path distribution =
                Path.of(System.getProperty("cairn.opensearch.home", "target/stand-ins/opensearch-" + VERSION));
        Path knn = Path.of(System.getProperty("cairn.opensearch.knn.zip", "target/stand-ins/opensearch-knn.zip"));
        Path painless = Path.of(System.getProperty("cairn.opensearch.painless.jars", "target/stand-ins/lang-painless"));
        Path analysisCommon = Path.of(System.getProperty(
                "cairn.opensearch.analysis-common.jar",
                "target/stand-ins/analysis-common/analysis-common-" + VERSION + ".jar"));
        for (Path p : List.of(distribution, knn, painless, analysisCommon)) {
            if (!Files.exists(p)) {
                throw new IllegalStateException(
                        p + " is missing: Maven's pre-integration-test phase fetches it " + "(run ./mvnw verify)");
            }
        }
        // a temporary folder, not target/: an unprivileged user must be able to reach it (CI clones under /root)
        Path node = Files.createTempDirectory("cairn-opensearch-");
        copyTree(distribution, node);
        Path module = node.resolve("modules/lang-painless");
        Files.createDirectories(module);
        try (var jars = Files.list(painless)) {
            for (Path jar : jars.toList()) {
                Files.copy(jar, module.resolve(jar.getFileName()));
            }
        }
        Files.writeString(
                module.resolve("plugin-descriptor.properties"),
                String.join(
                        "\n",
                        "description=Painless scripting, assembled from its Maven jars (the k-NN plugin extends it)",
                        "version=" + VERSION,
                        "name=lang-painless",
                        "classname=org.opensearch.painless.PainlessPlugin",
                        "java.version=11",
                        "opensearch.version=" + VERSION,
                        "extended.plugins=",
                        "has.native.controller=false",
                        ""));
        Files.writeString(module.resolve("plugin-security.policy"), """
                grant {
                  permission java.lang.RuntimePermission "createClassLoader";
                  permission java.lang.RuntimePermission "getClassLoader";
                };
                """);
        // the minimal distribution lacks analysis-common too, whose cjk_width and cjk_bigram filters the index's text
        // analyser uses (every full distribution and OpenSearch Serverless carry the module)
        Path analysis = node.resolve("modules/analysis-common");
        Files.createDirectories(analysis);
        Files.copy(analysisCommon, analysis.resolve(analysisCommon.getFileName()));
        Files.writeString(
                analysis.resolve("plugin-descriptor.properties"),
                String.join(
                        "\n",
                        "description=Common analysis components, assembled from its Maven jar",
                        "version=" + VERSION,
                        "name=analysis-common",
                        "classname=org.opensearch.analysis.common.CommonAnalysisPlugin",
                        "java.version=11",
                        "opensearch.version=" + VERSION,
                        "extended.plugins=lang-painless",
                        "has.native.controller=false",
                        ""));
        Path log = LocalServer.workDir().resolve("opensearch-install.log");
        run(
                log,
                node,
                List.of(
                        node.resolve("bin/opensearch-plugin").toString(),
                        "install",
                        "--batch",
                        knn.toUri().toString()));
        if (isRoot()) {
            Process id = new ProcessBuilder("id", "-u", RUN_AS)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .start();
            if (id.waitFor() != 0) {
                run(
                        log,
                        node,
                        List.of("useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", RUN_AS));
            }
            run(log, node, List.of("chown", "-R", RUN_AS, node.toString()));
        }
        return node;
    }

    public static synchronized void startNode() throws Exception {
        List<String> cmd = new ArrayList<>();
        if (isRoot()) {
            cmd.addAll(List.of("runuser", "-u", RUN_AS, "--"));
        }
        cmd.addAll(List.of(
                home.resolve("bin/opensearch").toString(),
                "-Ediscovery.type=single-node",
                "-Enetwork.host=127.0.0.1",
                "-Ehttp.port=" + httpPort,
                "-Etransport.port=" + transportPort,
                "-Ecluster.routing.allocation.disk.threshold_enabled=false"));
        Path log = LocalServer.workDir().resolve("opensearch.log");
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(home.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        pb.environment().put("OPENSEARCH_JAVA_OPTS", "-Xms512m -Xmx512m");
        process = pb.start();
        awaitReady(log);
    }

    /** Stops the node (SIGTERM, then kill after 30 s); its data stays for {@link #startNode()}. */
    public static synchronized void stopNode() throws InterruptedException {
        Processes.stop(process, 30);
    }

    private static void awaitReady(Path log) throws Exception {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException("OpenSearch exited with " + process.exitValue() + "; see " + log);
            }
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(url() + "/_cluster/health?wait_for_status=yellow&timeout=1s"))
                                .timeout(Duration.ofSeconds(5))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(250);
        }
        throw new IllegalStateException("OpenSearch not ready within 180 s; see " + log);
    }

    private static boolean isRoot() {
        return "root".equals(System.getProperty("user.name"));
    }

    private static void run(Path log, Path dir, List<String> cmd) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd)
                .directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed; see " + log);
        }
    }

    private static void deleteTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.delete(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException e) throws IOException {
                Files.delete(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void copyTree(Path from, Path to) throws IOException {
        Files.walkFileTree(from, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                Files.createDirectories(to.resolve(from.relativize(dir).toString()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.copy(file, to.resolve(from.relativize(file).toString()), StandardCopyOption.COPY_ATTRIBUTES);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
