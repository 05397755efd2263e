package dev.cairn.it;

import com.amazonaws.services.lambda.runtime.api.client.AWSLambda;
import com.amazonaws.services.lambda.runtime.serialization.PojoSerializer;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

/**
 * A packaged function ({@code target/function.zip}) run as Lambda's Java runtime runs it: the zip's root and
 * {@code lib/*.jar} on the class path, AWS's runtime interface client as the main class, polling the Lambda runtime API
 * that this class serves on loopback ({@code /2018-06-01/runtime/invocation/next}, {@code .../response},
 * {@code .../error}, {@code /init/error}). Events are handed out one at a time, as Lambda does per instance.
 */
final class LambdaRuntime implements AutoCloseable {

    /** What the function answered: its body, whether it reported an error, and when the answer arrived. */
    record Answer(boolean error, String body, long arrivedNanos) {}

    private record Invocation(String id, byte[] event, CompletableFuture<Answer> answer) {}

    private final HttpServer server;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "lambda-runtime-api");
        t.setDaemon(true);
        return t;
    });
    private final BlockingQueue<Invocation> pending = new LinkedBlockingQueue<>();
    private final Map<String, Invocation> inFlight = new ConcurrentHashMap<>();
    private final CompletableFuture<String> initError = new CompletableFuture<>();
    private final Path log;
    private Process process;
    private long startedNanos;

    private LambdaRuntime(Path log) throws IOException {
        this.log = log;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
        server.setExecutor(threads);
        server.createContext("/2018-06-01/runtime/", this::handle);
        server.start();
    }

    /**
     * Unzips {@code functionZip} under {@code work} and starts it with {@code handler} and {@code env} (the variables a
     * stack would set; the runtime's own are added). Returns once the process is started, before it is initialised.
     */
    static LambdaRuntime start(Path functionZip, String handler, Map<String, String> env, Path work)
            throws IOException {
        Path root = work.resolve("task");
        unzip(functionZip, root);
        LambdaRuntime runtime = new LambdaRuntime(work.resolve("function.log"));
        runtime.launch(root, handler, env);
        return runtime;
    }

    private void launch(Path root, String handler, Map<String, String> env) throws IOException {
        List<String> classPath = new ArrayList<>();
        classPath.add(root.toString());
        classPath.add(root.resolve("lib").toString() + "/*");
        classPath.add(jarOf(AWSLambda.class));
        classPath.add(jarOf(PojoSerializer.class));
        // the runtime client's own use of the SDK's utils-lite (Lambda's runtime brings it; a package without the SDK,
        // like secret-scan's, does not)
        classPath.add(jarOf(software.amazon.awssdk.utilslite.SdkInternalThreadLocal.class));
        String java = ProcessHandle.current().info().command().orElse("java");
        // as the stack configures every function: C1 only, a heap like a 1 GB function's
        List<String> command = List.of(
                java,
                "-Xmx512m",
                "-XX:+TieredCompilation",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                String.join(File.pathSeparator, classPath),
                AWSLambda.class.getName(),
                handler);
        ProcessBuilder builder = new ProcessBuilder(command)
                .directory(root.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(k -> k.startsWith("CAIRN_") || k.startsWith("QUARKUS_"));
        environment.putAll(Map.of(
                "AWS_LAMBDA_RUNTIME_API", "127.0.0.1:" + server.getAddress().getPort(),
                "AWS_LAMBDA_FUNCTION_NAME", "cairn-test",
                "AWS_LAMBDA_FUNCTION_VERSION", "1",
                "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "1024",
                "AWS_LAMBDA_LOG_GROUP_NAME", "/aws/lambda/cairn-test",
                "AWS_LAMBDA_LOG_STREAM_NAME", "local",
                "LAMBDA_TASK_ROOT", root.toString(),
                "_HANDLER", handler));
        environment.putAll(env);
        startedNanos = System.nanoTime();
        process = builder.start();
    }

    /**
     * The variables the stack gives every function ({@code CairnStack.environment}), pointed at the stand-ins:
     * dynalite, the OpenSearch node (plain HTTP, generated ids as in Serverless), no bucket, a Titan stand-in at {@code bedrock}, and credentials for the SDK's default chain as the execution role's would be.
     */
    static Map<String, String> stackEnvironment(String table, String bedrock) {
        Map<String, String> env = new java.util.LinkedHashMap<>(Map.ofEntries(
                Map.entry("AWS_ACCESS_KEY_ID", "local"),
                Map.entry("AWS_SECRET_ACCESS_KEY", "local"),
                Map.entry("AWS_REGION", "us-east-1"),
                Map.entry("CAIRN_BACKEND_RECORD_STORE", "dynamodb"),
                Map.entry("CAIRN_BACKEND_VECTOR_INDEX", "opensearch"),
                Map.entry("CAIRN_BACKEND_EMBEDDER", "bedrock"),
                Map.entry("CAIRN_AWS_REGION", "us-east-1"),
                Map.entry("CAIRN_AWS_DYNAMODB_TABLE", table),
                Map.entry("CAIRN_AWS_DYNAMODB_ENDPOINT", Dynalite.endpoint().toString()),
                Map.entry("CAIRN_AWS_DYNAMODB_CREATE_TABLE", "true"),
                Map.entry("CAIRN_AWS_OPENSEARCH_URL", OpenSearchNode.url()),
                Map.entry("CAIRN_AWS_OPENSEARCH_SIGNING", "none"),
                Map.entry("CAIRN_AWS_OPENSEARCH_INDEX", table),
                Map.entry("CAIRN_AWS_OPENSEARCH_ENGINE", "lucene"),
                Map.entry("CAIRN_AWS_OPENSEARCH_DOCUMENT_IDS", "generated"),
                Map.entry("CAIRN_AWS_OPENSEARCH_REFRESH", "true"),
                Map.entry("CAIRN_AWS_OPENSEARCH_SHARDS", "1"),
                Map.entry("CAIRN_AWS_OPENSEARCH_REPLICAS", "0"),
                Map.entry("CAIRN_AWS_BEDROCK_ENDPOINT", bedrock),
                Map.entry("CAIRN_AWS_BEDROCK_DIMENSIONS", "256"),
                Map.entry("CAIRN_DATA_DIR", "/tmp/cairn-data"),
                Map.entry("CAIRN_INDEXER_POLL", "false")));
        return env;
    }

    /** When the process was started ({@link System#nanoTime()}): the cold start is measured from here. */
    long startedNanos() {
        return startedNanos;
    }

    /** Hands {@code event} to the function and waits for its answer (or its initialisation error, or its death). */
    Answer invoke(String event, Duration timeout) throws InterruptedException, TimeoutException {
        Invocation invocation = new Invocation(
                UUID.randomUUID().toString(), event.getBytes(StandardCharsets.UTF_8), new CompletableFuture<>());
        pending.add(invocation);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            try {
                return invocation.answer().get(100, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (initError.isDone()) {
                    throw new IllegalStateException(
                            "the function failed to initialise: " + initError.join() + "\n" + tail());
                }
                if (!process.isAlive()) {
                    throw new IllegalStateException("the function exited with " + process.exitValue() + "\n" + tail());
                }
            } catch (java.util.concurrent.ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
        throw new TimeoutException("no answer within " + timeout + "\n" + tail());
    }

    /** The last lines the function wrote (its log), for failure messages. */
    String tail() {
        try {
            List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath().substring("/2018-06-01/runtime/".length());
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (path.equals("invocation/next") && exchange.getRequestMethod().equals("GET")) {
                Invocation next = pending.take();
                inFlight.put(next.id(), next);
                var headers = exchange.getResponseHeaders();
                headers.add("Lambda-Runtime-Aws-Request-Id", next.id());
                headers.add("Lambda-Runtime-Deadline-Ms", Long.toString(System.currentTimeMillis() + 300_000));
                headers.add(
                        "Lambda-Runtime-Invoked-Function-Arn",
                        "arn:aws:lambda:us-east-1:000000000000:function:cairn-test");
                headers.add("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000");
                headers.add("Content-Type", "application/json");
                exchange.sendResponseHeaders(200, next.event().length);
                exchange.getResponseBody().write(next.event());
                return;
            }
            if (path.equals("init/error")) {
                initError.complete(new String(body, StandardCharsets.UTF_8));
                exchange.sendResponseHeaders(202, -1);
                return;
            }
            if (path.startsWith("invocation/")) {
                String[] parts = path.split("/");
                Invocation invocation = parts.length == 3 ? inFlight.remove(parts[1]) : null;
                if (invocation != null && (parts[2].equals("response") || parts[2].equals("error"))) {
                    invocation
                            .answer()
                            .complete(new Answer(
                                    parts[2].equals("error"),
                                    new String(body, StandardCharsets.UTF_8),
                                    System.nanoTime()));
                    exchange.sendResponseHeaders(202, -1);
                    return;
                }
            }
            exchange.sendResponseHeaders(404, -1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        server.stop(0);
        threads.shutdownNow();
    }

    private static String jarOf(Class<?> type) {
        try {
            return Path.of(type.getProtectionDomain()
                            .getCodeSource()
                            .getLocation()
                            .toURI())
                    .toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void unzip(Path zip, Path into) throws IOException {
        try (InputStream in = Files.newInputStream(zip);
                ZipInputStream entries = new ZipInputStream(in)) {
            for (ZipEntry e = entries.getNextEntry(); e != null; e = entries.getNextEntry()) {
                Path target = into.resolve(e.getName()).normalize();
                if (!target.startsWith(into)) {
                    throw new IOException("zip entry outside the task root: " + e.getName());
                }
                if (e.isDirectory()) {
                    Files.createDirectories(target);
                } else {
                    Files.createDirectories(target.getParent());
                    Files.copy(entries, target);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
