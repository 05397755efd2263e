package dev.cairn.mcp;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.http.Unauthenticated;
import io.quarkus.security.AuthenticationFailedException;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

/**
 * Says why the Streamable HTTP endpoint refused a request. Quarkus security's 401 and the MCP library's 404 (an
 * {@code Mcp-Session-Id} it does not know), 405 and 400 came with empty bodies, so a client could only print a status:
 * a user could not tell a missing token from an expired one, nor a mistyped session id from a restarted server. Each
 * now carries a JSON-RPC error (id null: the request was not read) whose message says what to send instead; a client
 * SDK shows that text in its error. Statuses and headers stay what the transport and RFC 6750 say.
 */
@ApplicationScoped
public class McpErrorBodies {

    /** Before Quarkus security's authentication filter (−200). */
    static final int BEFORE_AUTHENTICATION = -250;

    /** After the authentication filter (−200), before the authorization filter (−100) answers an anonymous 401. */
    static final int BEFORE_AUTHORIZATION = -150;

    /** JSON-RPC's range for errors a server defines (−32000 to −32099): the caller is not authenticated. */
    static final int UNAUTHORIZED = -32001;

    static final String SESSION_HEADER = "Mcp-Session-Id";

    void install(@Observes Router router) {
        router.route(BearerMechanism.ROOT).order(BEFORE_AUTHORIZATION).handler(rc -> {
            String header = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
            if (header == null || header.isBlank()) {
                unauthorized(
                        rc,
                        "Unauthorized: this MCP endpoint needs an Authorization: Bearer <token> header (a token for"
                                + " your user and team)",
                        false);
            } else {
                rc.next();
            }
        });
        router.route(BearerMechanism.ROOT).order(-1000).failureHandler(McpErrorBodies::failed);
        // The library also serves the HTTP+SSE transport of MCP 2024-11-05 (GET /mcp/sse, POST /mcp/messages/…),
        // which none of this module's checks cover and which the AWS stack never routes. It is not offered: a client
        // that tries it is told where the Streamable HTTP endpoint is. Before authentication, so the answer is the
        // same with or without a token.
        for (String legacy : new String[] {BearerMechanism.ROOT + "/sse", BearerMechanism.ROOT + "/messages/*"}) {
            router.route(legacy)
                    .order(BEFORE_AUTHENTICATION)
                    .handler(
                            rc -> rc.response()
                                    .setStatusCode(404)
                                    .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                                    .end(
                                            body(
                                                    McpEnvelope.INVALID_REQUEST,
                                                    "Not found: this server speaks MCP over Streamable HTTP at "
                                                            + BearerMechanism.ROOT
                                                            + " (protocol 2025-06-18); the HTTP+SSE transport of 2024-11-05 is not offered")));
        }
    }

    private static void failed(RoutingContext rc) {
        if (rc.response().headWritten()) {
            rc.next();
            return;
        }
        Throwable failure = rc.failure();
        if (failure instanceof AuthenticationFailedException) {
            String header = rc.request().getHeader(HttpHeaders.AUTHORIZATION);
            boolean bearer = header != null
                    && header.regionMatches(true, 0, BearerMechanism.PREFIX, 0, BearerMechanism.PREFIX.length());
            // only this server's own reasons go back to the caller: Quarkus' other failures may carry none, or
            // internals (mechanism names) that are no business of a client
            String reason = failure.getCause() instanceof Unauthenticated own
                    ? own.getMessage()
                    : "the credentials were refused; send Authorization: Bearer <token>";
            unauthorized(rc, "Unauthorized: " + reason, bearer);
            return;
        }
        String message = failure == null ? message(rc.statusCode(), rc) : null;
        if (message == null) {
            rc.next();
            return;
        }
        rc.response()
                .setStatusCode(rc.statusCode())
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(body(McpEnvelope.INVALID_REQUEST, message));
    }

    /** What a refusal of the library's means to the caller, or null for one left as it was. */
    static String message(int status, RoutingContext rc) {
        String session = rc.request().getHeader(SESSION_HEADER);
        switch (status) {
            case 404:
                return session == null
                        ? "Not found: " + rc.request().method() + " /mcp acts on a session and needs its "
                                + SESSION_HEADER + " header (the one initialize answered with)"
                        : "Session not found: this server has no MCP session " + quoted(session)
                                + " (it was deleted, expired while idle, or the server restarted). Start a new one:"
                                + " send initialize without an " + SESSION_HEADER + " header, then use the "
                                + SESSION_HEADER + " its answer carries";
            case 405:
                rc.response().putHeader("Allow", "GET, POST, DELETE");
                return rc.request().method() == HttpMethod.GET
                        ? "Method not allowed: a GET on /mcp opens the event stream of an existing session and needs"
                                + " its " + SESSION_HEADER + " header; send each request as a POST (this server answers"
                                + " every POST directly)"
                        : "Method not allowed: /mcp takes POST (each message), GET (a session's event stream) and"
                                + " DELETE (ends a session, with its " + SESSION_HEADER + " header)";
            case 400:
                return rc.request().method() == HttpMethod.GET
                        ? "Bad Request: a GET on /mcp (the session's event stream) sends Accept: text/event-stream"
                        : "Bad Request: send Content-Type: application/json and Accept: application/json,"
                                + " text/event-stream (MCP Streamable HTTP)";
            default:
                return null;
        }
    }

    private static void unauthorized(RoutingContext rc, String message, boolean tokenSent) {
        // RFC 6750 § 3: a request without a bearer token gets the bare challenge; a refused token also names the error
        rc.response()
                .setStatusCode(401)
                .putHeader("WWW-Authenticate", tokenSent ? "Bearer error=\"invalid_token\"" : "Bearer")
                .putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .end(body(UNAUTHORIZED, message));
    }

    static String body(int code, String message) {
        ObjectNode error = JsonNodeFactory.instance.objectNode();
        error.put("jsonrpc", "2.0");
        error.putNull("id");
        error.putObject("error").put("code", code).put("message", message);
        return error.toString();
    }

    /** A client's header, quoted and cut short: it goes back into the answer. */
    private static String quoted(String value) {
        String cut = value.length() > 80 ? value.substring(0, 80) + "…" : value;
        return "'" + cut.replaceAll("\\p{Cntrl}", "?") + "'";
    }
}
