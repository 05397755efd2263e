package dev.cairn.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.model.error.FieldError;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.List;
import java.util.Locale;

/**
 * Refuses {@code .} and {@code ..} path segments, literal or percent-encoded ({@code %2e%2e}), and encoded separators
 * inside a segment ({@code %2f}, {@code %5c}) under {@code /v1/}, with a 400 problem.
 *
 * <p>It runs first on the Vert.x router, on the raw request target: the HTTP layer removes dot segments before
 * routing (RFC 3986 §5.2.4), which would quietly turn {@code /memories/..} into another route and answer it. No Cairn
 * id can be a dot segment or hold a separator, so nothing is normalised into something else.
 */
@ApplicationScoped
public class RawPathGuard {

    private static final ObjectMapper JSON = new ObjectMapper();

    void install(@Observes Router router) {
        router.route().order(Integer.MIN_VALUE).handler(rc -> {
            String problem = problemOf(rc.request().uri());
            if (problem == null) {
                rc.next();
            } else {
                rc.response()
                        .setStatusCode(400)
                        .putHeader("Content-Type", Problem.MEDIA_TYPE)
                        .end(problem);
            }
        });
    }

    /** The problem document for a raw request target, or null when the path is fine. */
    static String problemOf(String uri) {
        if (uri == null) {
            return null;
        }
        int q = uri.indexOf('?');
        String raw = q < 0 ? uri : uri.substring(0, q);
        if (!raw.startsWith("/v1/")) {
            return null;
        }
        for (String segment : raw.split("/", -1)) {
            String s = segment.toLowerCase(Locale.ROOT).replace("%2e", ".");
            String why = null;
            if (s.equals(".") || s.equals("..")) {
                why = "has a '" + s + "' segment; ids never contain dots or path traversal, and the path is not "
                        + "normalised";
            } else if (s.contains("%2f") || s.contains("%5c")) {
                why = "has an encoded '/' or '\\' inside a segment; ids never contain separators";
            }
            if (why != null) {
                try {
                    return JSON.writeValueAsString(Problem.of(
                            "invalid-request",
                            "Invalid request",
                            400,
                            "path " + why,
                            List.of(new FieldError("path", why))));
                } catch (JsonProcessingException e) {
                    throw new IllegalStateException(e);
                }
            }
        }
        return null;
    }
}
