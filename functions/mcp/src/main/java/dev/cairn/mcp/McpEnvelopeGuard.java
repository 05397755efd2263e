package dev.cairn.mcp;

import io.quarkiverse.mcp.server.ToolManager;
import io.quarkiverse.mcp.server.runtime.ConnectionManager;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.Set;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * {@link McpEnvelope} in front of the Streamable HTTP endpoint: a message the MCP library would fail on is answered
 * here (HTTP 200 with the JSON-RPC error for a request; 400 for input that is no request at all, as the transport
 * says), and one it needs completed goes on completed. It runs after Quarkus security's filters (orders −200 and −100:
 * a caller without a valid token still gets 401, whatever it sends) and before the library's own routes.
 */
@ApplicationScoped
public class McpEnvelopeGuard {

    /** After the authentication (−200) and authorization (−100) filters, before the routes of extensions. */
    static final int ORDER = -50;

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    Optional<MemorySize> maxBodySize;

    @Inject
    ToolManager toolManager;

    /** The library's live sessions (its runtime bean: the only place that knows which ids it issued). */
    @Inject
    ConnectionManager connections;

    /** Stateless (the Lambda package): any message may come without a session, and an unknown one is served too. */
    @ConfigProperty(name = "quarkus.mcp.server.http.streamable.dummy-init", defaultValue = "false")
    boolean stateless;

    private volatile Set<String> tools;

    void install(@Observes Router router) {
        BodyHandler reader = BodyHandler.create(false);
        maxBodySize.ifPresent(limit -> reader.setBodyLimit(limit.asLongValue()));
        // first the body (Vert.x's body handler goes on to the next route once it is in), then the check
        router.route(HttpMethod.POST, BearerMechanism.ROOT).order(ORDER).handler(rc -> {
            if (rc.body().available()) {
                rc.next();
            } else {
                reader.handle(rc);
            }
        });
        router.route(HttpMethod.POST, BearerMechanism.ROOT).order(ORDER + 1).handler(this::guard);
    }

    /** What the Streamable HTTP transport asks a client to accept; the MCP library refuses anything else with 400. */
    static final String BOTH = "application/json, text/event-stream";

    /**
     * The {@code Accept} header to hand on, or null to refuse. The transport says a client lists both media types, and
     * the library answers any other header with an empty 400, which a hand-written client (curl sends
     * {@code *}{@code /*}) cannot read. The library answers a single message with JSON (this server never streams
     * progress), so a client that takes JSON — nothing said, {@code *}{@code /*}, {@code application/*} or
     * {@code application/json}, with a q above 0 — is served as if it had listed both. A batch of several requests may
     * be answered as an event stream, so a batch keeps the header it came with. One that takes no JSON is refused with
     * a JSON-RPC error saying what to send.
     */
    static String accepted(String accept, boolean batch) {
        boolean json = accept == null || accept.isBlank();
        boolean stream = false;
        if (!json) {
            for (String range : accept.toLowerCase(java.util.Locale.ROOT).split(",")) {
                String[] parts = range.split(";");
                String type = parts[0].strip();
                boolean refused = false;
                for (int k = 1; k < parts.length; k++) {
                    refused |= parts[k].strip().matches("q\\s*=\\s*0(\\.0*)?");
                }
                if (refused) {
                    continue;
                }
                json |= type.equals("application/json") || type.equals("application/*") || type.equals("*/*");
                stream |= type.equals("text/event-stream") || type.equals("text/*") || type.equals("*/*");
            }
        }
        if (!json) {
            return null;
        }
        if (stream || !batch) {
            return BOTH; // what the library asks for, and what this client takes
        }
        return null;
    }

    /**
     * The names of the server's tools, read once: they are declared by annotations. A tool registered at run time
     * through {@link ToolManager} would be refused as unknown; nothing here registers one (if something ever does, read
     * the names per request instead).
     */
    Set<String> tools() {
        Set<String> known = tools;
        if (known == null) {
            known = toolNames(toolManager);
            tools = known;
        }
        return known;
    }

    static Set<String> toolNames(ToolManager manager) {
        return java.util.stream.StreamSupport.stream(manager.spliterator(), false)
                .map(ToolManager.ToolInfo::name)
                .collect(java.util.stream.Collectors.toUnmodifiableSet());
    }

    @SuppressWarnings("deprecation") // setBody: the supported way to hand a later route a different body
    private void guard(RoutingContext rc) {
        Buffer body = rc.body().buffer();
        String text = body == null ? "" : body.toString();
        String accept =
                accepted(rc.request().getHeader("Accept"), text.stripLeading().startsWith("["));
        if (accept == null) {
            rc.response()
                    .setStatusCode(406)
                    .putHeader("Content-Type", "application/json")
                    .end("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":" + McpEnvelope.INVALID_REQUEST
                            + ",\"message\":\"Not acceptable: this server answers in JSON, and a batch may be answered as an event stream;"
                            + " send Accept: " + BOTH
                            + " (MCP Streamable HTTP)\"}}");
            return;
        }
        rc.request().headers().set("Accept", accept);
        // the session first: a request outside any session is refused for that, whatever else is wrong with it
        String session = rc.request().getHeader(McpErrorBodies.SESSION_HEADER);
        boolean inSession = session != null && !session.isBlank();
        // a session id the library does not know is its 404 (with McpErrorBodies' text), initialize or not
        Optional<String> misplaced = stateless || (inSession && !connections.has(session))
                ? Optional.empty()
                : McpEnvelope.sessionProblem(text, inSession);
        if (misplaced.isPresent()) {
            rc.response()
                    .setStatusCode(400)
                    .putHeader("Content-Type", "application/json")
                    .end(misplaced.get());
            return;
        }
        McpEnvelope.Verdict verdict = McpEnvelope.check(text, tools());
        if (verdict instanceof McpEnvelope.Refuse refuse) {
            rc.response()
                    .setStatusCode(refuse.toRequest() ? 200 : 400)
                    .putHeader("Content-Type", "application/json")
                    .end(refuse.answer());
        } else if (verdict instanceof McpEnvelope.Pass pass) {
            if (pass.changed()) {
                rc.setBody(Buffer.buffer(pass.body()));
            }
            rc.next();
        } else {
            rc.response().setStatusCode(202).end(); // a notification no one here handles
        }
    }
}
