package dev.cairn.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A request whose declared length is over the server's body limit gets a 413 problem saying the limit, instead of the
 * HTTP layer's bare 413 with no body (a new user's trial could not tell what was too large, or by how much).
 *
 * <p>It runs on the Vert.x router before the body is read, from the {@code Content-Length} header alone, and closes
 * the connection after answering so that the unread body is never parsed as a next request. A chunked body declares no
 * length: it is read here by Vert.x's {@link BodyHandler} with the same limit (REST handlers then take the read body
 * from the routing context instead of the socket), and when it runs over, the failure is answered with the same problem.
 *
 * <p>A {@code /v1} body that declares its length is read here too, on the event loop, before the request is handed to a
 * worker thread. Quarkus REST runs Cairn's (blocking) resource methods on a worker and, for those, reads the body
 * there through a blocking stream: the worker asks the event loop for the body and sleeps until the event loop hands
 * it over, two more thread hand-offs on every {@code POST}, {@code PATCH} and {@code PUT} than on a {@code GET}. Read
 * ahead, the body is already in memory when the worker starts. Form and multipart bodies (which Cairn does not take)
 * and requests with an {@code Expect} header keep the HTTP layer's own path.
 */
@ApplicationScoped
public class BodySizeGuard {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** What to do about it, on any route: a batch, a session message or a tool result alike. */
    private static final String SMALLER = "Send a smaller body: fewer memories per batch, and each content or message"
            + " within cairn.memory.max-content-bytes";

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    Optional<MemorySize> maxBodySize;

    void install(@Observes Router router) {
        if (maxBodySize.isEmpty()) {
            return;
        }
        long limit = maxBodySize.get().asLongValue();
        BodyHandler reader = BodyHandler.create(false).setBodyLimit(limit);
        router.route().order(Integer.MIN_VALUE + 1).handler(rc -> {
            String declared = rc.request().getHeader("Content-Length");
            String problem = problemOf(declared, limit);
            if (problem != null) {
                refuse(rc, problem);
            } else if (declared == null && isChunked(rc.request().getHeader("Transfer-Encoding"))) {
                reader.handle(rc);
            } else if (readsAhead(
                    rc.request().version(),
                    rc.normalizedPath(),
                    declared,
                    rc.request().getHeader("Content-Type"),
                    rc.request().getHeader("Expect"))) {
                reader.handle(rc);
            } else {
                rc.next();
            }
        });
        router.route().order(Integer.MIN_VALUE + 1).failureHandler(rc -> {
            if (rc.statusCode() == 413 && !rc.response().headWritten()) {
                refuse(rc, problemOfChunked(limit));
            } else {
                rc.next();
            }
        });
    }

    private static void refuse(RoutingContext rc, String problem) {
        rc.response()
                .setStatusCode(413)
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .putHeader("Connection", "close")
                .end(problem)
                .onComplete(sent -> {
                    // HTTP/1 would otherwise wait for the rest of the body; an HTTP/2 connection carries
                    // other requests' streams and is left open (the stream itself is reset by the end)
                    if (rc.request().version() != HttpVersion.HTTP_2) {
                        rc.request().connection().close();
                    }
                });
    }

    /**
     * Whether a body within the limit is read on the event loop before the request goes on: a {@code /v1} request
     * that declares a length above zero, is not a form and expects nothing. Only over HTTP/1: an HTTP/2 stream read
     * ahead makes Quarkus REST's own pause of the request throw "Request has already been read", a 500 that Java's
     * HTTP client met, which upgrades to h2c by default.
     */
    static boolean readsAhead(
            HttpVersion version, String path, String contentLength, String contentType, String expect) {
        if (version == HttpVersion.HTTP_2
                || path == null
                || !path.startsWith("/v1/")
                || contentLength == null
                || expect != null) {
            return false;
        }
        try {
            if (Long.parseLong(contentLength.strip()) <= 0) {
                return false;
            }
        } catch (NumberFormatException e) {
            return false; // the HTTP layer refuses a malformed length itself
        }
        String type = contentType == null ? "" : contentType.strip().toLowerCase(Locale.ROOT);
        return !type.startsWith("multipart/") && !type.startsWith("application/x-www-form-urlencoded");
    }

    static boolean isChunked(String transferEncoding) {
        return transferEncoding != null
                && transferEncoding.toLowerCase(Locale.ROOT).contains("chunked");
    }

    /** The problem document for a chunked body that ran over the limit while it was read. */
    static String problemOfChunked(long limit) {
        return write(Problem.of(
                "content-too-large",
                "Content too large",
                413,
                "the request body (sent in chunks, with no Content-Length) ran over " + limit
                        + " bytes, the most this server takes (quarkus.http.limits.max-body-size). " + SMALLER));
    }

    /** The problem document for a declared body length over the limit, or null when it is within (or not a number). */
    static String problemOf(String contentLength, long limit) {
        if (contentLength == null) {
            return null;
        }
        long length;
        try {
            length = Long.parseLong(contentLength.strip());
        } catch (NumberFormatException e) {
            return null; // the HTTP layer refuses a malformed length itself
        }
        if (length <= limit) {
            return null;
        }
        return write(Problem.of(
                "content-too-large",
                "Content too large",
                413,
                "the request body is " + length + " bytes; this server takes at most " + limit
                        + " (quarkus.http.limits.max-body-size). " + SMALLER));
    }

    private static String write(Object problem) {
        try {
            return JSON.writeValueAsString(problem);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
