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
 * Refuses {@code .} and {@code ..} path segments, literal or percent-encoded ({@code %2e%2e}), encoded separators
 * inside a segment ({@code %2f}, {@code %5c}), empty segments ({@code //v1/…}, {@code /v1//teams}) and matrix
 * parameters ({@code ;x=1}, literal or {@code %3b}) under {@code /v1/}, with a 400 problem. The HTTP layer would
 * otherwise merge the slashes and drop the parameters, serving a path other than the one sent.
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
        // what the router would make of it: empty segments merged, matrix parameters dropped
        String routed = raw.replaceAll("/{2,}", "/").replaceAll("(?i)(;|%3b)[^/]*", "");
        if (!routed.startsWith("/v1/") && !routed.equals("/v1")) {
            return null;
        }
        String[] segments = raw.split("/", -1);
        for (int i = 1; i < segments.length; i++) {
            String s = segments[i].toLowerCase(Locale.ROOT).replace("%2e", ".");
            String why = null;
            if (s.isEmpty() && i < segments.length - 1) {
                why = "has an empty segment ('//'); ids are never empty, and the path is not normalised";
            } else if (s.contains(";") || s.contains("%3b")) {
                why = "has a ';' (a matrix parameter); ids never contain one, and the path is not normalised";
            } else if (s.equals(".") || s.equals("..")) {
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
