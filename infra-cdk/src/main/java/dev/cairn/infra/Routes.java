package dev.cairn.infra;

import java.util.List;

/**
 * Which function answers which route of the HTTP API. API Gateway cannot match a path parameter followed by a literal
 * in one segment ({@code {id}:restore}), so those routes use a greedy parameter under a prefix only that function's
 * colon routes live under (the function itself still matches the exact path and answers 404 otherwise).
 * {@code RoutesCrossCheckTest} (integration-tests) holds this list to the functions' JAX-RS resources.
 */
public final class Routes {

    /** One route: HTTP method, API Gateway path, owning function. */
    public record Route(String method, String path, String function) {}

    private static final String TEAM = "/v1/teams/{team}";
    private static final String SESSION = TEAM + "/sessions/{session}";

    public static final List<Route> ALL = List.of(
            new Route("POST", TEAM + "/memories", "recall"),
            new Route("GET", TEAM + "/memories", "recall"),
            new Route("POST", TEAM + "/memories:batch", "recall"),
            new Route("GET", TEAM + "/memories/{id}", "recall"),
            new Route("PATCH", TEAM + "/memories/{id}", "recall"),
            new Route("DELETE", TEAM + "/memories/{id}", "recall"),
            new Route("POST", TEAM + "/recall", "recall"),
            new Route("POST", SESSION + "/messages", "session-summarize"),
            new Route("GET", SESSION, "session-summarize"),
            new Route("PUT", SESSION, "session-summarize"),
            new Route("PUT", SESSION + "/tool-cache", "session-summarize"),
            new Route("DELETE", SESSION + "/tool-cache", "session-summarize"),
            new Route("POST", SESSION + "/tool-cache:lookup", "session-summarize"),
            new Route("GET", SESSION + "/tool-cache/stats", "session-summarize"),
            new Route("PUT", SESSION + "/context/prefix", "session-summarize"),
            new Route("GET", SESSION + "/context", "session-summarize"),
            new Route("POST", SESSION + "/usage", "session-summarize"),
            new Route("GET", SESSION + "/usage", "session-summarize"),
            new Route("GET", SESSION + "/usage/series", "session-summarize"),
            new Route("POST", SESSION + "/end", "fact-extract"),
            new Route("GET", SESSION + "/extract-preview", "fact-extract"),
            new Route("POST", TEAM + "/sync", "team-sync"),
            new Route("GET", TEAM + "/changes", "team-sync"),
            new Route("POST", TEAM + "/sync:rebuild", "team-sync"),
            new Route("GET", TEAM + "/conflicts", "team-sync"),
            new Route("POST", TEAM + "/conflicts/{proxy+}", "team-sync"),
            new Route("POST", "/v1/scan", "secret-scan"),
            new Route("POST", TEAM + "/decay:run", "decay-job"),
            new Route("POST", TEAM + "/memories/{proxy+}", "decay-job"));

    /**
     * The MCP function's Streamable HTTP endpoint (POST messages, GET the server's event stream, DELETE the session).
     * Apart from {@link #ALL}: it is the MCP library's route, not a JAX-RS resource the cross-check could read.
     */
    public static final List<Route> MCP = List.of(
            new Route("POST", "/mcp", "mcp"), new Route("GET", "/mcp", "mcp"), new Route("DELETE", "/mcp", "mcp"));

    private Routes() {}
}
