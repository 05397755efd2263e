package dev.cairn.http;

import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.core.Response;
import java.util.Set;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A request that Quarkus matched to a less specific route than the path names is answered 405, as a routing miss on
 * that path would be. {@code DELETE …/memories/m1:restore} is the case a new user's trial found: the path is the
 * restore route, which takes only POST, but Quarkus REST, finding no DELETE there, falls back to {@code DELETE
 * memories/{id}} (a parameter matches {@code m1:restore} too), and the id check then answered 400 "invalid id" — a
 * misleading error, and on a route whose purpose (deleting) is far from what the caller meant. {@link Routes} picks
 * the route a path names by the most literal characters, as JAX-RS itself does when it chooses among templates.
 *
 * <p>It runs before authentication, as a routing miss does, and changes nothing for a method the path's own route
 * takes; HEAD and OPTIONS are left to the framework.
 */
public class MostSpecificRoute {

    @ServerRequestFilter(priority = Priorities.AUTHENTICATION - 100)
    public Response refuseFallback(ContainerRequestContext request) {
        String path = request.getUriInfo().getRequestUri().getRawPath();
        // only a custom-method segment ("m1:restore") can be taken by a less specific route: a template's parameter
        // holds no colon in Routes, so without one Quarkus and the table agree, and a recall or write skips the scan
        if (path == null || path.indexOf(':') < 0) {
            return null;
        }
        return refusal(request.getMethod(), Routes.allowed(path));
    }

    /** The 405 answer when the path's own route does not take {@code method}; null (go on) otherwise. */
    static Response refusal(String method, Set<String> allowed) {
        if (method.equals("HEAD") || method.equals("OPTIONS") || allowed.isEmpty() || allowed.contains(method)) {
            return null;
        }
        return ProblemMappers.methodNotAllowed(method, allowed);
    }
}
