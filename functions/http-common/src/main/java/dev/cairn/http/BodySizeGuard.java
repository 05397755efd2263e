package dev.cairn.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpVersion;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Optional;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * A request whose declared length is over the server's body limit gets a 413 problem saying the limit, instead of the
 * HTTP layer's bare 413 with no body (a new user's trial could not tell what was too large, or by how much).
 *
 * <p>It runs on the Vert.x router before the body is read, from the {@code Content-Length} header alone, and closes
 * the connection after answering so that the unread body is never parsed as a next request. A chunked body with no
 * declared length is still cut off by the HTTP layer's own limit.
 */
@ApplicationScoped
public class BodySizeGuard {

    private static final ObjectMapper JSON = new ObjectMapper();

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    Optional<MemorySize> maxBodySize;

    void install(@Observes Router router) {
        if (maxBodySize.isEmpty()) {
            return;
        }
        long limit = maxBodySize.get().asLongValue();
        router.route().order(Integer.MIN_VALUE + 1).handler(rc -> {
            String problem = problemOf(rc.request().getHeader("Content-Length"), limit);
            if (problem == null) {
                rc.next();
            } else {
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
        });
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
        try {
            return JSON.writeValueAsString(Problem.of(
                    "content-too-large",
                    "Content too large",
                    413,
                    "the request body is " + length + " bytes; this server takes at most " + limit
                            + " (quarkus.http.limits.max-body-size). Send fewer memories per batch, or content"
                            + " within cairn.memory.max-content-bytes"));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
