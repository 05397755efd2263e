package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The MCP function as it runs in AWS: its packaged {@code function.zip} started as Lambda's Java runtime starts it
 * ({@link LambdaRuntime}) with the stack's environment (AWS adapters on dynalite, the local OpenSearch node and a Titan
 * stand-in; stateless Streamable HTTP as the package is built), fed API Gateway HTTP API (payload 2.0) events for {@code /mcp} that carry the JWT authorizer's claims next
 * to the client's bearer token. Every MCP message is its own invocation, as behind API Gateway, and the function's
 * answer must be a complete proxy answer: a JSON body, never an event stream the HTTP API could not pass on.
 */
@ExtendWith({Dynalite.class, OpenSearchNode.class})
class PackagedMcpLambdaIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    static final Path PACKAGE = Path.of("../functions/mcp/target/function.zip");
    private static final String HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";
    private static final String ISSUER = "https://issuer.mcp-lambda";
    private static final Duration FIRST = Duration.ofMinutes(3);
    private static final Duration NEXT = Duration.ofSeconds(60);

    @TempDir
    Path work;

    private int ids;

    @Test
    void theMcpLambda_shouldInitializeListToolsAndRecallWhatItRemembered_fromApiGatewayEventsWithJwtClaims()
            throws Exception {
        KeyPair key = KeyPairGenerator.getInstance("RSA").generateKeyPair();
        Map<String, Object> claims = ApiGatewayEvents.claims(ISSUER, "mira", List.of("lambda"));
        String token = ApiGatewayEvents.token(key, claims);
        String table = "mcp-" + UUID.randomUUID().toString().substring(0, 8);
        try (TitanStandIn bedrock = new TitanStandIn();
                LambdaRuntime function =
                        LambdaRuntime.start(PACKAGE, HANDLER, environment(key, table, bedrock), work)) {
            // initialize: the first event pays the cold start
            ApiGatewayEvents.Reply init = post(
                    function,
                    token,
                    claims,
                    null,
                    request(
                            "initialize",
                            Map.of(
                                    "protocolVersion",
                                    "2025-06-18",
                                    "capabilities",
                                    Map.of(),
                                    "clientInfo",
                                    Map.of("name", "packaged-it", "version", "1"))),
                    FIRST);
            assertThat(init.status()).as(init.body() + "\n" + function.tail()).isEqualTo(200);
            assertThat(init.headers().get("content-type")).startsWith("application/json");
            JsonNode server = init.json().path("result");
            assertThat(server.path("serverInfo").path("name").asText()).isEqualTo("cairn");
            assertThat(server.path("capabilities").has("tools")).isTrue();
            String session = init.headers().get("mcp-session-id");
            assertThat(session).as("the session id of the initialize answer").isNotBlank();

            ApiGatewayEvents.Reply initialized =
                    post(function, token, claims, session, notification("notifications/initialized"), NEXT);
            assertThat(initialized.status()).as(initialized.body()).isEqualTo(202);

            ApiGatewayEvents.Reply list = post(function, token, claims, session, request("tools/list", Map.of()), NEXT);
            assertThat(list.status()).as(list.body()).isEqualTo(200);
            List<String> tools = new ArrayList<>();
            list.json()
                    .path("result")
                    .path("tools")
                    .forEach(t -> tools.add(t.path("name").asText()));
            assertThat(tools)
                    .contains(
                            "remember",
                            "recall",
                            "get_memory",
                            "update_memory",
                            "forget",
                            "list_memories",
                            "session_append",
                            "session_context",
                            "session_end",
                            "tool_cache_lookup",
                            "tool_cache_store",
                            "sync_status",
                            "sync_conflicts");

            String fact = "The billing service stores its ledger in PostgreSQL 16, not in DynamoDB.";
            JsonNode remembered = toolResult(post(
                    function,
                    token,
                    claims,
                    session,
                    call("remember", Map.of("content", fact, "type", "decision", "scope", "team")),
                    NEXT));
            assertThat(remembered.path("isError").asBoolean())
                    .as(remembered.toString())
                    .isFalse();
            JsonNode memory = JSON.readTree(
                    remembered.path("content").path(0).path("text").asText());
            assertThat(memory.path("content").asText()).isEqualTo(fact);
            String id = memory.path("id").asText();

            // stateless: no session header at all (a client that never kept it), and an instance that never saw it
            for (String header : new String[] {null, "an-instance-never-saw-this-" + UUID.randomUUID()}) {
                JsonNode recalled = toolResult(post(
                        function,
                        token,
                        claims,
                        header,
                        call("recall", Map.of("query", "Which database holds the billing ledger?", "top_k", 3)),
                        NEXT));
                assertThat(recalled.path("isError").asBoolean())
                        .as(recalled.toString())
                        .isFalse();
                JsonNode results = JSON.readTree(
                                recalled.path("content").path(0).path("text").asText())
                        .path("results");
                assertThat(results.path(0).path("memory").path("id").asText())
                        .as("session header %s: %s", header, results)
                        .isEqualTo(id);
                assertThat(results.path(0).has("score")).isTrue();
            }

            // a tenant check still holds: the token grants team lambda only
            JsonNode otherTeam = toolResult(post(
                    function,
                    token,
                    claims,
                    session,
                    call("remember", Map.of("content", "a note for another team", "team", "beta")),
                    NEXT));
            assertThat(otherTeam.path("isError").asBoolean())
                    .as(otherTeam.toString())
                    .isTrue();
            assertThat(otherTeam.path("content").path(0).path("text").asText()).contains("\"status\":403");

            // no token and no claims (a request that never passed the authorizer): refused, nothing done
            ApiGatewayEvents.Reply anonymous = reply(
                    function,
                    ApiGatewayEvents.http(
                            "POST",
                            "/mcp",
                            mcpHeaders(null, null),
                            call("remember", Map.of("content", "anonymous write", "team", "lambda")),
                            null));
            assertThat(anonymous.status()).as(anonymous.body()).isEqualTo(401);
            assertThat(anonymous.headers().get("www-authenticate")).isEqualTo("Bearer");
            // claims without the token they came from are not a credential the function accepts
            ApiGatewayEvents.Reply claimsOnly = reply(
                    function,
                    ApiGatewayEvents.http(
                            "POST", "/mcp", mcpHeaders(null, null), request("tools/list", Map.of()), claims));
            assertThat(claimsOnly.status()).as(claimsOnly.body()).isEqualTo(401);

            // a malformed call (tools/call without params) gets its JSON-RPC error from the function, at once
            ApiGatewayEvents.Reply malformed = post(
                    function,
                    token,
                    claims,
                    session,
                    "{\"jsonrpc\":\"2.0\",\"id\":99,\"method\":\"tools/call\"}",
                    NEXT);
            assertThat(malformed.status()).as(malformed.body()).isEqualTo(200);
            assertThat(malformed.json().path("id").asInt()).isEqualTo(99);
            assertThat(malformed.json().path("error").path("code").asInt())
                    .as(malformed.body())
                    .isEqualTo(-32602);
            // and a call without arguments (optional in the MCP schema) runs
            JsonNode status = toolResult(post(
                    function,
                    token,
                    claims,
                    null,
                    "{\"jsonrpc\":\"2.0\",\"id\":100,\"method\":\"tools/call\",\"params\":{\"name\":"
                            + "\"sync_status\"}}",
                    NEXT));
            assertThat(status.path("isError").asBoolean()).as(status.toString()).isFalse();

            JsonNode listed = toolResult(
                    post(function, token, claims, null, call("list_memories", Map.of("scope", "team")), NEXT));
            assertThat(listed.path("content").path(0).path("text").asText())
                    .contains(id)
                    .doesNotContain("anonymous write");
        }
    }

    private static Map<String, String> environment(KeyPair key, String table, TitanStandIn bedrock) {
        Map<String, String> env = new LinkedHashMap<>(LambdaRuntime.stackEnvironment(table, bedrock.endpoint()));
        env.put("CAIRN_AUTH_ISSUER", ISSUER);
        env.put("CAIRN_AUTH_PUBLIC_KEY", ApiGatewayEvents.pem(key));
        // no QUARKUS_MCP_SERVER_HTTP_STREAMABLE_DUMMY_INIT: the package itself must be stateless (the setting is fixed
        // at
        // build time; an environment variable alone left the function stateful)
        return env;
    }

    private ApiGatewayEvents.Reply post(
            LambdaRuntime function,
            String token,
            Map<String, Object> claims,
            String session,
            String message,
            Duration timeout)
            throws Exception {
        return reply(
                function, ApiGatewayEvents.http("POST", "/mcp", mcpHeaders(token, session), message, claims), timeout);
    }

    private static ApiGatewayEvents.Reply reply(LambdaRuntime function, String event) throws Exception {
        return reply(function, event, NEXT);
    }

    private static ApiGatewayEvents.Reply reply(LambdaRuntime function, String event, Duration timeout)
            throws Exception {
        LambdaRuntime.Answer answer = function.invoke(event, timeout);
        assertThat(answer.error()).as(answer.body() + "\n" + function.tail()).isFalse();
        return ApiGatewayEvents.Reply.of(answer.body());
    }

    private static Map<String, String> mcpHeaders(String token, String session) {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("content-type", "application/json");
        headers.put("accept", "application/json, text/event-stream");
        if (token != null) {
            headers.put("authorization", "Bearer " + token);
        }
        if (session != null) {
            headers.put("mcp-session-id", session);
        }
        return headers;
    }

    private static JsonNode toolResult(ApiGatewayEvents.Reply reply) throws Exception {
        assertThat(reply.status()).as(reply.body()).isEqualTo(200);
        assertThat(reply.headers().get("content-type"))
                .as(reply.headers().toString())
                .startsWith("application/json");
        JsonNode result = reply.json().path("result");
        assertThat(result.isObject()).as(reply.body()).isTrue();
        return result;
    }

    private String request(String method, Map<String, Object> params) throws Exception {
        return JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "id", ++ids, "method", method, "params", params));
    }

    private static String notification(String method) throws Exception {
        return JSON.writeValueAsString(Map.of("jsonrpc", "2.0", "method", method));
    }

    private String call(String tool, Map<String, Object> arguments) throws Exception {
        return request("tools/call", Map.of("name", tool, "arguments", arguments));
    }
}
