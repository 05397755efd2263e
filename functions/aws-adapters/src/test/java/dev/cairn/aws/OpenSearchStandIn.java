package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.GZIPInputStream;

/**
 * A local HTTP stand-in for one OpenSearch index: records every request as it arrived on the wire (method, path, query,
 * the headers that matter, the decoded body) and answers as a node would, from a little state (does the index exist),
 * so that the adapter's whole request sequence can be compared with the one the AWS profile must send.
 */
final class OpenSearchStandIn implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request; {@code body} is the decoded text (gunzipped when sent compressed), empty when there was none. */
    record Recorded(
            String method,
            String path,
            String query,
            String contentType,
            String contentEncoding,
            String authorization,
            String contentSha256,
            String wireSha256,
            String body) {}

    private final HttpServer server;
    final List<Recorded> requests = new CopyOnWriteArrayList<>();
    private final String index;
    private volatile boolean exists;
    /** Answers every request with this status and an OpenSearch error body, when set (an overloaded node). */
    volatile int failWith;

    private final AtomicInteger generated = new AtomicInteger();
    private final ExecutorService threads = Executors.newFixedThreadPool(4);

    OpenSearchStandIn(String index) throws IOException {
        this.index = index;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.setExecutor(threads); // the kNN and BM25 halves of a search arrive together
        server.start();
    }

    URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    private void handle(HttpExchange exchange) throws IOException {
        byte[] raw = exchange.getRequestBody().readAllBytes();
        String wireSha256 = sha256Hex(raw);
        String encoding = exchange.getRequestHeaders().getFirst("Content-Encoding");
        if ("gzip".equals(encoding)) {
            raw = new GZIPInputStream(new ByteArrayInputStream(raw)).readAllBytes();
        }
        String body = new String(raw, StandardCharsets.UTF_8);
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getRawPath();
        requests.add(new Recorded(
                method,
                path,
                exchange.getRequestURI().getRawQuery(),
                exchange.getRequestHeaders().getFirst("Content-Type"),
                encoding,
                exchange.getRequestHeaders().getFirst("Authorization"),
                exchange.getRequestHeaders().getFirst("x-amz-content-sha256"),
                wireSha256,
                body));
        if (failWith != 0) {
            answer(
                    exchange,
                    failWith,
                    "{\"error\":{\"type\":\"es_rejected_execution_exception\",\"reason\":\"busy\"}," + "\"status\":"
                            + failWith + "}");
            return;
        }
        String base = "/" + index;
        if (method.equals("GET") && path.equals(base + "/_mapping")) {
            if (!exists) {
                answer(
                        exchange,
                        404,
                        "{\"error\":{\"root_cause\":[{\"type\":\"index_not_found_exception\","
                                + "\"reason\":\"no such index [" + index
                                + "]\"}],\"type\":\"index_not_found_exception\","
                                + "\"reason\":\"no such index [" + index + "]\"},\"status\":404}");
            } else {
                answer(
                        exchange,
                        200,
                        "{\"" + index + "\":{\"mappings\":{\"dynamic\":\"strict\",\"_meta\":"
                                + "{\"cairn_model\":\"test-model/3\",\"dimensions\":3,\"cairn_space\":\"innerproduct\"},"
                                + "\"properties\":{\"key\":{\"type\":\"keyword\"}}}}}");
            }
        } else if (method.equals("PUT") && path.equals(base)) {
            if (exists) {
                answer(
                        exchange,
                        400,
                        "{\"error\":{\"type\":\"resource_already_exists_exception\",\"reason\":\"exists\"},"
                                + "\"status\":400}");
                return;
            }
            exists = true;
            answer(exchange, 200, "{\"acknowledged\":true,\"shards_acknowledged\":true,\"index\":\"" + index + "\"}");
        } else if (method.equals("DELETE") && path.equals(base)) {
            exists = false;
            answer(exchange, 200, "{\"acknowledged\":true}");
        } else if (method.equals("POST") && path.equals(base + "/_bulk")) {
            answer(exchange, 200, bulkAnswer(body));
        } else if (method.equals("POST") && path.equals(base + "/_search")) {
            answer(exchange, 200, searchAnswer());
        } else {
            answer(
                    exchange,
                    400,
                    "{\"error\":{\"type\":\"illegal_argument_exception\",\"reason\":\"unexpected " + method + " " + path
                            + "\"},\"status\":400}");
        }
    }

    /** One item per action line; a document without an id gets a generated one; a delete of "stale/…" conflicts. */
    private String bulkAnswer(String body) throws IOException {
        ObjectNode out = JSON.createObjectNode();
        out.put("took", 3);
        out.put("errors", false);
        ArrayNode items = out.putArray("items");
        String[] lines = body.split("\n");
        for (int i = 0; i < lines.length; i++) {
            JsonNode action = JSON.readTree(lines[i]);
            String op = action.fieldNames().next();
            JsonNode meta = action.get(op);
            ObjectNode item = items.addObject().putObject(op);
            item.put("_index", index);
            item.put("_id", meta.has("_id") ? meta.get("_id").asText() : "gen-" + generated.incrementAndGet());
            item.put("_version", 1);
            item.put("result", op.equals("delete") ? "deleted" : "created");
            item.put("status", op.equals("delete") ? 200 : 201);
            if (op.equals("index")) {
                i++; // the document line
            }
        }
        return JSON.writeValueAsString(out);
    }

    private static String searchAnswer() {
        return """
                {"took":2,"timed_out":false,"_shards":{"total":1,"successful":1,"skipped":0,"failed":0},
                 "hits":{"total":{"value":2,"relation":"eq"},"max_score":1.8,"hits":[
                   {"_index":"idx","_id":"doc-1","_score":1.8,
                    "_source":{"key":"t1/m1","memory_id":"m1","version":2,"v":[0.6,0.8,0.0]}},
                   {"_index":"idx","_id":"doc-2","_score":0.5,
                    "_source":{"key":"t1/m2","memory_id":"m2","version":1,"v":[0.0,1.0,0.0]}}]}}
                """;
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return java.util.HexFormat.of()
                    .formatHex(
                            java.security.MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void answer(HttpExchange exchange, int status, String body) throws IOException {
        byte[] out = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=UTF-8");
        exchange.sendResponseHeaders(status, out.length);
        exchange.getResponseBody().write(out);
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }
}
