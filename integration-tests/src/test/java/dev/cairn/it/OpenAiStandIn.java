package dev.cairn.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local OpenAI-compatible {@code /v1/chat/completions} that plays back recorded answers
 * ({@code src/test/resources/openai/}) or fails the way a real local model server does: a 500, malformed JSON in the
 * message content, or no answer before the client's timeout.
 */
final class OpenAiStandIn implements AutoCloseable {

    enum Mode {
        RECORDED,
        SERVER_ERROR,
        MALFORMED,
        SLOW
    }

    private final HttpServer server;
    private volatile Mode mode = Mode.RECORDED;
    private final AtomicInteger calls = new AtomicInteger();

    OpenAiStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/v1/chat/completions", exchange -> {
            try (InputStream in = exchange.getRequestBody()) {
                in.readAllBytes();
            }
            calls.incrementAndGet();
            int status = 200;
            String body;
            switch (mode) {
                case SERVER_ERROR -> {
                    status = 500;
                    body = "{\"error\":{\"message\":\"model failed to load\"}}";
                }
                case MALFORMED -> body = recorded("extraction-malformed.json");
                case SLOW -> {
                    sleep(5000);
                    body = recorded("extraction-ok.json");
                }
                default -> body = recorded("extraction-ok.json");
            }
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            try {
                exchange.sendResponseHeaders(status, bytes.length);
                exchange.getResponseBody().write(bytes);
            } catch (IOException e) {
                // the client stopped waiting (SLOW): nobody to answer
            }
            exchange.close();
        });
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    void mode(Mode m) {
        mode = m;
    }

    int calls() {
        return calls.get();
    }

    private static String recorded(String name) throws IOException {
        try (InputStream in = OpenAiStandIn.class.getResourceAsStream("/openai/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
