package dev.cairn.it;

import static dev.cairn.it.SharedServer.server;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * What a hurried or hand-written MCP client sends: requests without {@code params}, {@code params} of the wrong type,
 * a tool call without {@code arguments} (optional in the MCP schema), unknown methods, empty and mixed batches. Before
 * {@code McpEnvelope}, the MCP library left several unanswered for good (the request timed out) or answered 500. Each
 * must now get its JSON-RPC error at once, change nothing, and leave the session usable — over Streamable HTTP on the
 * shared server and over stdio on the jar's {@code mcp} command.
 */
@ExtendWith(SharedServer.class)
class McpMalformedMessagesIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TEAM = "mcp-malformed";
    private static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    private static final String UNKNOWN_TOOL = "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"recal\",\"arguments\":{\"query\":\"which database?\"}}}";

    /** Each bad request (id = its index + 1), and the JSON-RPC error code it must get. */
    private static final List<Map.Entry<String, Integer>> BAD = List.of(
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}", -32602),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{}}", -32602),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":\"recall\"}", -32602),
            Map.entry(
                    "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\","
                            + "\"arguments\":\"remember this\"}}",
                    -32602),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"resources/read\"}", -32602),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"prompts/get\"}", -32602),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"completion/complete\"}", -32602),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/list\",\"params\":[]}", -32602),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"memories/search\"}", -32601),
            // this server offers no subscriptions: the library never answered this one
            Map.entry(
                    "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"resources/subscribe\",\"params\":{\"uri\":"
                            + "\"cairn://teams/" + TEAM + "/memories/x\"}}",
                    -32601),
            Map.entry("{\"jsonrpc\":\"2.0\",\"id\":13}", -32600),
            // a misspelt tool: refused with the names it could have meant
            Map.entry(UNKNOWN_TOOL, -32602),
            // a batch whose second message is bad: the remember in it must not run
            Map.entry(
                    "[{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"remember\","
                            + "\"arguments\":{\"content\":\"The batch fact is never stored\",\"team\":\"" + TEAM
                            + "\"}}},{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\"}]",
                    -32602));

    /** A required argument sent as null (as Pydantic clients send what they leave out): the tool names it. */
    private static final String NULL_ARGUMENT = "{\"jsonrpc\":\"2.0\",\"id\":21,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"recall\",\"arguments\":{\"query\":null,\"top_k\":null}}}";

    /** A cached tool result (plain text wrapped in an object), then looked up. */
    private static final String STORE_TEXT = "{\"jsonrpc\":\"2.0\",\"id\":22,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"tool_cache_store\",\"arguments\":{\"session\":\"s1\",\"tool\":\"grep\",\"params\":"
            + "{\"q\":\"TODO\"},\"result\":{\"text\":\"3 matches in src/\"}}}}";
    /** A validator without its value: refused naming the tool's own argument. */
    private static final String HALF_VALIDATOR = "{\"jsonrpc\":\"2.0\",\"id\":24,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"tool_cache_lookup\",\"arguments\":{\"session\":\"s1\",\"tool\":\"grep\",\"params\":"
            + "{\"q\":\"TODO\"},\"validator_kind\":\"mtime\"}}}";

    private static final String LOOKUP_TEXT = "{\"jsonrpc\":\"2.0\",\"id\":23,\"method\":\"tools/call\",\"params\":"
            + "{\"name\":\"tool_cache_lookup\",\"arguments\":{\"session\":\"s1\",\"tool\":\"grep\",\"params\":"
            + "{\"q\":\"TODO\"}}}}";

    private static final String NO_ARGUMENTS =
            "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\",\"params\":" + "{\"name\":\"list_memories\"}}";

    private final HttpClient http =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @Test
    void badMessagesOverHttp_shouldEachGetTheirError_changeNothing_andLeaveTheSessionUsable() throws Exception {
        String token = server().token("mira", TEAM);
        HttpResponse<String> init = post(token, null, INITIALIZE);
        String session = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertThat(post(token, session, INITIALIZED).statusCode()).isEqualTo(202);

        for (Map.Entry<String, Integer> bad : BAD) {
            HttpResponse<String> response = post(token, session, bad.getKey());

            assertThat(response.statusCode()).as(bad.getKey()).isEqualTo(200);
            assertErrors(JSON.readTree(response.body()), bad.getKey(), bad.getValue());
        }
        assertNamesTheTools(JSON.readTree(post(token, session, UNKNOWN_TOOL).body()));
        for (String notAMessage : List.of("[]", "42", "not json", "")) {
            HttpResponse<String> response = post(token, session, notAMessage);

            assertThat(response.statusCode()).as(notAMessage).isEqualTo(400);
            assertThat(JSON.readTree(response.body()).at("/error/code").asInt()).isIn(-32600, -32700);
        }
        // a notification no one handles is acknowledged and never answered
        HttpResponse<String> unknown = post(token, session, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"}");
        assertThat(unknown.statusCode()).isEqualTo(202);
        assertThat(unknown.body()).isEmpty();

        JsonNode nullQuery = JSON.readTree(post(token, session, NULL_ARGUMENT).body());
        assertThat(nullQuery.at("/result/isError").asBoolean())
                .as(nullQuery.toString())
                .isTrue();
        assertThat(nullQuery.at("/result/content/0/text").asText())
                .contains("\"status\":400")
                .contains("query");
        JsonNode stored = JSON.readTree(post(token, session, STORE_TEXT).body());
        assertThat(stored.at("/result/isError").asBoolean())
                .as(stored.toString())
                .isFalse();
        JsonNode hit = JSON.readTree(post(token, session, LOOKUP_TEXT).body());
        assertThat(JSON.readTree(hit.at("/result/content/0/text").asText())
                        .at("/result/text")
                        .asText())
                .as(hit.toString())
                .isEqualTo("3 matches in src/");
        JsonNode halfValidator =
                JSON.readTree(post(token, session, HALF_VALIDATOR).body());
        assertThat(halfValidator.at("/result/content/0/text").asText())
                .as(halfValidator.toString())
                .contains("validator_value")
                .doesNotContain("validator.value");

        // a tool call without arguments runs, and shows the batch's remember never did
        JsonNode listed = JSON.readTree(post(token, session, NO_ARGUMENTS).body());
        assertThat(listed.at("/result/isError").asBoolean())
                .as(listed.toString())
                .isFalse();
        JsonNode page = JSON.readTree(listed.at("/result/content/0/text").asText());
        assertThat(page.get("memories")).as(page.toString()).isEmpty();
    }

    @Test
    void aHandWrittenClientThatTakesJson_shouldBeServed_andOneThatTakesNoneHearWhatToSend() throws Exception {
        String token = server().token("mira", TEAM);
        for (String accept : new String[] {"*/*", "application/json"}) {
            HttpResponse<String> init = post(token, null, INITIALIZE, accept);

            assertThat(init.statusCode()).as(accept).isEqualTo(200);
            assertThat(JSON.readTree(init.body()).at("/result/protocolVersion").asText())
                    .isNotBlank();
        }
        HttpResponse<String> html = post(token, null, INITIALIZE, "text/html");
        assertThat(html.statusCode()).isEqualTo(406);
        assertThat(JSON.readTree(html.body()).at("/error/message").asText())
                .contains("application/json, text/event-stream");
    }

    @Test
    void aCallerWithoutAToken_shouldGet401_whateverItSends_withABodySayingWhy() throws Exception {
        HttpResponse<String> response = post(null, null, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\"}");

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(JSON.readTree(response.body()).at("/error/message").asText()).contains("Authorization: Bearer");
    }

    @Test
    void aRefusedToken_shouldGet401_namingTheTokenAsTheProblem() throws Exception {
        HttpResponse<String> response = post("not.a.token", null, INITIALIZE);

        assertThat(response.statusCode()).isEqualTo(401);
        assertThat(response.headers().firstValue("WWW-Authenticate")).hasValue("Bearer error=\"invalid_token\"");
        assertThat(JSON.readTree(response.body()).at("/error/message").asText()).contains("token is invalid, expired");
    }

    @Test
    void bearerWithNoToken_shouldBeToldSo_onTheMcpEndpointAndTheApi() throws Exception {
        for (String path : List.of("/mcp", "/v1/teams/" + TEAM + "/memories")) {
            HttpResponse<String> response = http.send(
                    HttpRequest.newBuilder(URI.create(server().baseUrl() + path))
                            .header("Authorization", "Bearer")
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(INITIALIZE))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode()).as(path).isEqualTo(401);
            assertThat(response.body()).as(path).contains("has no token after Bearer");
        }
    }

    @Test
    void anUnknownSession_shouldGet404_sayingHowToStartANewOne() throws Exception {
        String token = server().token("mira", TEAM);

        HttpResponse<String> response =
                post(token, "no-such-session", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}");

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(response.body()).at("/error/message").asText())
                .contains("no-such-session")
                .contains("send initialize without an Mcp-Session-Id header");
    }

    @Test
    void messagesThatDoNotFitTheirSession_shouldGet400_sayingWhatToSend() throws Exception {
        String token = server().token("mira", TEAM);

        HttpResponse<String> noSession = post(token, null, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");

        assertThat(noSession.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(noSession.body()).get("id").asInt()).isEqualTo(3);
        assertThat(JSON.readTree(noSession.body()).at("/error/message").asText())
                .contains("no Mcp-Session-Id header");

        String session = post(token, null, INITIALIZE)
                .headers()
                .firstValue("Mcp-Session-Id")
                .orElseThrow();
        // a misspelt tool without a session: the session is what it is told about
        HttpResponse<String> unknownTool = post(token, null, UNKNOWN_TOOL);
        assertThat(unknownTool.statusCode()).isEqualTo(400);
        assertThat(unknownTool.body()).contains("no Mcp-Session-Id header");
        // initialize with an id this server never issued: the 404 that tells a client to start again
        assertThat(post(token, "stale-session", INITIALIZE).statusCode()).isEqualTo(404);

        HttpResponse<String> again = post(token, session, INITIALIZE);

        assertThat(again.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(again.body()).at("/error/message").asText()).contains("already initialized");
        // and the session is still there
        assertThat(post(token, session, INITIALIZED).statusCode()).isEqualTo(202);
    }

    @Test
    void otherMethodsOnTheEndpoint_shouldBeAnsweredWithWhatTheyNeed() throws Exception {
        String token = server().token("mira", TEAM);

        HttpResponse<String> deleteWithoutSession = send(token, "DELETE");
        HttpResponse<String> put = send(token, "PUT");

        assertThat(deleteWithoutSession.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(deleteWithoutSession.body())
                        .at("/error/message")
                        .asText())
                .contains("needs its Mcp-Session-Id header");
        for (String legacy : List.of("/mcp/sse", "/mcp/messages/abc")) {
            HttpResponse<String> sse = http.send(
                    HttpRequest.newBuilder(URI.create(server().baseUrl() + legacy))
                            .timeout(Duration.ofSeconds(20))
                            .header("Authorization", "Bearer " + token)
                            .GET()
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(sse.statusCode()).as(legacy).isEqualTo(404);
            assertThat(sse.body()).as(legacy).contains("Streamable HTTP at /mcp");
        }
        assertThat(put.statusCode()).isEqualTo(405);
        assertThat(put.headers().firstValue("Allow")).hasValue("GET, POST, DELETE");
        assertThat(JSON.readTree(put.body()).at("/error/message").asText()).contains("takes POST");
    }

    private HttpResponse<String> send(String token, String method) throws Exception {
        return http.send(
                HttpRequest.newBuilder(URI.create(server().baseUrl() + "/mcp"))
                        .timeout(Duration.ofSeconds(20))
                        .header("Authorization", "Bearer " + token)
                        .method(method, HttpRequest.BodyPublishers.noBody())
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** An unknown tool's refusal suggests the near name and lists every tool, so a model can correct its call. */
    private static void assertNamesTheTools(JsonNode answer) {
        assertThat(answer.at("/error/code").asInt()).as(answer.toString()).isEqualTo(-32602);
        assertThat(answer.at("/error/message").asText())
                .contains("no tool 'recal'")
                .contains("did you mean recall?")
                .contains("remember")
                .contains("tool_cache_lookup");
    }

    @Test
    void badMessagesOverStdio_shouldEachGetTheirError_andLeaveTheSessionUsable() throws Exception {
        Path data = Files.createTempDirectory(LocalServer.workDir(), "mcp-malformed-");
        Process mcp = new ProcessBuilder(
                        Processes.java(),
                        "-Xmx384m",
                        "-jar",
                        LocalServer.JAR.toString(),
                        "mcp",
                        "--user",
                        "mira",
                        "--team",
                        TEAM,
                        "--data-dir",
                        data.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        try {
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader in =
                        new BufferedReader(new InputStreamReader(mcp.getInputStream(), StandardCharsets.UTF_8))) {
                    for (String line; (line = in.readLine()) != null; ) {
                        lines.add(line);
                    }
                } catch (java.io.IOException ignored) {
                    // the process ended
                }
            });
            reader.setDaemon(true);
            reader.start();
            OutputStream in = mcp.getOutputStream();
            send(in, INITIALIZE);
            assertThat(answersById(lines, 1, Duration.ofSeconds(90))).containsKey("0");
            send(in, INITIALIZED);
            // a blank line is skipped; a line that is not JSON is answered -32700; reading goes on after both (the
            // library stopped reading stdin for good after either)
            send(in, "");
            send(in, "not json at all");
            JsonNode parseError = JSON.readTree(lines.poll(20, TimeUnit.SECONDS));
            assertThat(parseError.at("/error/code").asInt()).isEqualTo(-32700);

            for (Map.Entry<String, Integer> bad : BAD) {
                send(in, bad.getKey());
                String line = lines.poll(20, TimeUnit.SECONDS);

                assertThat(line).as("an answer to %s", bad.getKey()).isNotNull();
                assertErrors(JSON.readTree(line), bad.getKey(), bad.getValue());
            }
            send(in, UNKNOWN_TOOL);
            assertNamesTheTools(JSON.readTree(lines.poll(20, TimeUnit.SECONDS)));
            send(in, NO_ARGUMENTS);
            JsonNode listed = answersById(lines, 1, Duration.ofSeconds(20)).get("20");
            assertThat(listed).isNotNull();
            assertThat(listed.at("/result/isError").asBoolean())
                    .as(listed.toString())
                    .isFalse();
            assertThat(JSON.readTree(listed.at("/result/content/0/text").asText())
                            .get("memories"))
                    .isEmpty();
        } finally {
            mcp.getOutputStream().close();
            Processes.stop(mcp, 10);
        }
    }

    /** The answer to {@code sent} is one JSON-RPC error per request in it, the bad one with {@code code}. */
    private static void assertErrors(JsonNode answer, String sent, int code) throws Exception {
        JsonNode request = JSON.readTree(sent);
        List<JsonNode> requests = request.isArray() ? iterate(request) : List.of(request);
        List<JsonNode> answers = answer.isArray() ? iterate(answer) : List.of(answer);
        assertThat(answers).as(answer.toString()).hasSize(requests.size());
        for (int i = 0; i < requests.size(); i++) {
            assertThat(answers.get(i).get("id")).isEqualTo(requests.get(i).get("id"));
            assertThat(answers.get(i).has("error")).as(answer.toString()).isTrue();
            assertThat(answers.get(i).at("/error/message").asText()).isNotBlank();
        }
        assertThat(answers.get(answers.size() - 1).at("/error/code").asInt())
                .as(answer.toString())
                .isEqualTo(code);
    }

    private static List<JsonNode> iterate(JsonNode array) {
        List<JsonNode> all = new java.util.ArrayList<>();
        array.forEach(all::add);
        return all;
    }

    private static Map<String, JsonNode> answersById(BlockingQueue<String> lines, int count, Duration wait)
            throws Exception {
        Map<String, JsonNode> byId = new HashMap<>();
        long deadline = System.nanoTime() + wait.toNanos();
        while (byId.size() < count) {
            String line = lines.poll(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            assertThat(line).as("an answer within %s", wait).isNotNull();
            JsonNode node = JSON.readTree(line);
            if (node.has("id")) {
                byId.put(node.get("id").asText(), node);
            }
        }
        return byId;
    }

    private static void send(OutputStream in, String line) throws java.io.IOException {
        in.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        in.flush();
    }

    private HttpResponse<String> post(String token, String session, String body) throws Exception {
        return post(token, session, body, "application/json, text/event-stream");
    }

    private HttpResponse<String> post(String token, String session, String body, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server().baseUrl() + "/mcp"))
                .timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (accept != null) {
            request.header("Accept", accept);
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (session != null) {
            request.header("Mcp-Session-Id", session);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
