package dev.cairn.it;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bedrock's InvokeModel for Titan Text Embeddings V2, stood in by a loopback HTTP server answering every call with
 * a recorded reply ({@code bedrock/titan-v2-256.json}, 256 dimensions); any other path answers 404.
 */
final class TitanStandIn implements AutoCloseable {

    private final HttpServer server;
    private final AtomicInteger invocations = new AtomicInteger();

    TitanStandIn() throws IOException {
        byte[] recorded;
        try (var in = TitanStandIn.class.getResourceAsStream("/bedrock/titan-v2-256.json")) {
            recorded = in.readAllBytes();
        }
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            try (exchange) {
                exchange.getRequestBody().readAllBytes();
                boolean expected =
                        exchange.getRequestURI().getRawPath().equals("/model/amazon.titan-embed-text-v2%3A0/invoke");
                if (expected) {
                    invocations.incrementAndGet();
                }
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(expected ? 200 : 404, recorded.length);
                exchange.getResponseBody().write(recorded);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        server.start();
    }

    String endpoint() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    /** InvokeModel calls answered so far. */
    int invocations() {
        return invocations.get();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
