package dev.cairn.it;

import static dev.cairn.it.SharedServer.server;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The MCP server as an agent meets it, driven by a client nobody here wrote: the official TypeScript SDK
 * ({@code @modelcontextprotocol/sdk}, pinned in package-lock.json) runs {@code src/test/js/mcp-scenario.mjs} — every
 * tool, the resources, a fact remembered in one MCP session and recalled in the next, and the errors (bad arguments,
 * another team, a secret) — once over Streamable HTTP against the shared server and once over stdio against the jar's
 * {@code mcp} command.
 */
@ExtendWith(SharedServer.class)
class McpClientIT {

    private static final Path SCENARIO = Path.of("src/test/js/mcp-scenario.mjs");
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theTypeScriptClient_shouldUseEveryTool_overStreamableHttp() throws Exception {
        Map<String, Object> config = Map.of(
                "transport", "http",
                "url", server().baseUrl() + "/mcp",
                "token", server().token("mira", "mcp-http", "strict"),
                "team", "mcp-http",
                "strictTeam", "strict",
                "otherTeam", "beta");

        assertScenarioPasses(config);
    }

    @Test
    void theTypeScriptClient_shouldUseEveryTool_overStdio() throws Exception {
        Path data = Files.createTempDirectory(LocalServer.workDir(), "mcp-stdio-");
        Map<String, Object> config = Map.of(
                "transport",
                "stdio",
                "command",
                Processes.java(),
                "args",
                List.of(
                        "-Xmx384m",
                        "-Dcairn.secrets.team-policy.strict=reject",
                        "-jar",
                        LocalServer.JAR.toString(),
                        "mcp",
                        "--user",
                        "mira",
                        "--team",
                        "mcp-stdio",
                        "--team",
                        "strict",
                        "--data-dir",
                        data.toString()),
                "team",
                "mcp-stdio",
                "strictTeam",
                "strict",
                "otherTeam",
                "beta");

        assertScenarioPasses(config);
    }

    @Test
    void theHttpEndpoint_shouldRefuseACallWithoutAValidToken() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        String initialize = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"it\",\"version\":\"1\"}}}";
        for (String authorization : new String[] {null, "Bearer not-a-jwt", "Basic bWlyYTpzZWNyZXQ="}) {
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(server().baseUrl() + "/mcp"))
                    .header("Content-Type", "application/json")
                    .header("Accept", "application/json, text/event-stream")
                    .POST(HttpRequest.BodyPublishers.ofString(initialize));
            if (authorization != null) {
                request.header("Authorization", authorization);
            }
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());

            assertThat(response.statusCode())
                    .as("Authorization: %s", authorization)
                    .isEqualTo(401);
            // RFC 6750: the bare challenge, and for a bearer token that was refused the error it names
            assertThat(response.headers().firstValue("WWW-Authenticate"))
                    .hasValue(
                            authorization != null && authorization.startsWith("Bearer ")
                                    ? "Bearer error=\"invalid_token\""
                                    : "Bearer");
            assertThat(JSON.readTree(response.body()).at("/error/message").asText())
                    .as("Authorization: %s", authorization)
                    .startsWith("Unauthorized: ");
        }
    }

    private static void assertScenarioPasses(Map<String, Object> config) throws IOException, InterruptedException {
        Process node = new ProcessBuilder("node", SCENARIO.toString(), JSON.writeValueAsString(config))
                .redirectErrorStream(true)
                .start();
        String output;
        try {
            output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(node.waitFor(4, TimeUnit.MINUTES))
                    .as("the scenario ends")
                    .isTrue();
        } finally {
            node.destroyForcibly();
        }
        assertThat(output).as(output).doesNotContain("not ok").containsPattern("(?m)^\\d+ passed, 0 failed$");
        assertThat(node.exitValue()).as(output).isZero();
    }
}
