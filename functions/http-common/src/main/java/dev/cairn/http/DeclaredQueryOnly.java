package dev.cairn.http;

import dev.cairn.model.error.FieldError;
import dev.cairn.model.error.InvalidInput;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A query parameter the matched route does not declare is refused with a 400 problem naming it and the ones the route
 * takes. Left alone, {@code GET …/context?top_k=3} answered as if the parameter were absent, so a caller's mistake (a
 * body field sent as a query parameter, a misspelt {@code max_token}) silently did something else — the same reason
 * JSON bodies refuse unknown fields ({@link StrictJson}).
 *
 * <p>It runs after matching, on {@code /v1} routes only, and reads the names from the resource method's own
 * {@link QueryParam} annotations, so a parameter added to a route is accepted without touching this class.
 */
public class DeclaredQueryOnly {

    private static final ConcurrentMap<Method, Set<String>> DECLARED = new ConcurrentHashMap<>();

    @ServerRequestFilter
    public void refuseUndeclared(ContainerRequestContext request, ResourceInfo resource) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/v1/") || resource == null || resource.getResourceMethod() == null) {
            return;
        }
        var query = request.getUriInfo().getQueryParameters();
        if (query.isEmpty()) {
            return;
        }
        Set<String> declared = DECLARED.computeIfAbsent(resource.getResourceMethod(), DeclaredQueryOnly::declared);
        boolean takesBody = Set.of("POST", "PUT", "PATCH").contains(request.getMethod());
        List<FieldError> errors = new ArrayList<>();
        for (String name : new TreeSet<>(query.keySet())) {
            if (!declared.contains(name)) {
                errors.add(new FieldError(name, unknown(declared, takesBody)));
            } else if (query.get(name).size() > 1) {
                // the route reads one value: taking the first would quietly drop the others ("?tag=a&tag=b")
                errors.add(new FieldError(
                        name, "is given " + query.get(name).size() + " times; this route takes one value for it"));
            }
        }
        if (!errors.isEmpty()) {
            throw new InvalidInput(errors);
        }
    }

    static String unknown(Set<String> declared, boolean takesBody) {
        return declared.isEmpty()
                ? "is not a query parameter of this route, which takes none"
                        + (takesBody ? " (body fields go in the JSON body)" : "")
                : "is not a query parameter of this route, which takes: " + String.join(", ", declared);
    }

    static Set<String> declared(Method method) {
        java.util.SortedSet<String> names = new TreeSet<>();
        for (Annotation[] annotations : method.getParameterAnnotations()) {
            for (Annotation a : annotations) {
                if (a instanceof QueryParam q) {
                    names.add(q.value());
                }
            }
        }
        return java.util.Collections.unmodifiableSortedSet(names);
    }
}
