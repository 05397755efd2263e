package dev.cairn.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.model.error.InvalidInput;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.FormParam;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.MatrixParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.jboss.resteasy.reactive.RestForm;
import org.jboss.resteasy.reactive.RestHeader;
import org.jboss.resteasy.reactive.RestPath;
import org.jboss.resteasy.reactive.RestQuery;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * A request body sent to a route that reads none is refused with a 400 problem instead of ignored. A new user's trial
 * sent {@code POST …/sessions/{id}/end} with {@code {"dry_run": true}}: the body was dropped unread and the session was
 * ended and its facts stored — the opposite of what the caller asked. An empty body and {@code {}} are still accepted,
 * since clients commonly send them with every POST.
 *
 * <p>Whether a route reads a body is decided from its resource method: it does when one parameter carries no
 * parameter annotation (the JAX-RS entity parameter). Read before the filter runs ({@code readBody}), the body is put
 * back for the method where it is kept.
 */
public class BodyOnlyWhereTaken {

    private static final ConcurrentMap<Method, Boolean> TAKES_BODY = new ConcurrentHashMap<>();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<Class<? extends Annotation>> NOT_THE_BODY = Set.of(
            PathParam.class,
            QueryParam.class,
            HeaderParam.class,
            CookieParam.class,
            MatrixParam.class,
            FormParam.class,
            BeanParam.class,
            Context.class,
            RestPath.class,
            RestQuery.class,
            RestHeader.class,
            RestForm.class);

    @ServerRequestFilter(readBody = true)
    public void refuseUnreadBody(ContainerRequestContext request, ResourceInfo resource) throws IOException {
        if (!request.getUriInfo().getPath().startsWith("/v1/")
                || resource == null
                || resource.getResourceMethod() == null
                || !request.hasEntity()
                || TAKES_BODY.computeIfAbsent(resource.getResourceMethod(), BodyOnlyWhereTaken::takesBody)) {
            return;
        }
        byte[] body;
        try {
            body = request.getEntityStream().readAllBytes();
        } catch (IOException closed) {
            // Behind API Gateway (quarkus-amazon-lambda-http) a POST without a body reports an entity whose stream is
            // already closed: there is nothing to refuse.
            return;
        }
        request.setEntityStream(new ByteArrayInputStream(body));
        String refusal = refusal(new String(body, StandardCharsets.UTF_8));
        if (refusal != null) {
            throw new InvalidInput("body", refusal);
        }
    }

    /** Why a body sent to a route that reads none is refused, or null when it says nothing ({@code {}} or blank). */
    static String refusal(String body) {
        if (body.isBlank()) {
            return null;
        }
        try {
            JsonNode node = JSON.readTree(body);
            if (node != null && node.isObject() && node.isEmpty()) {
                return null;
            }
            if (node != null && node.isObject()) {
                List<String> names = new ArrayList<>();
                node.fieldNames().forEachRemaining(names::add);
                return "is not read by this route, which takes no request body: the field(s) "
                        + String.join(", ", names)
                        + " would be ignored (send no body, or {})";
            }
        } catch (IOException e) {
            // not JSON: refused below like any other content
        }
        return "is not read by this route, which takes no request body (send no body, or {})";
    }

    static boolean takesBody(Method method) {
        for (Annotation[] annotations : method.getParameterAnnotations()) {
            boolean annotated = false;
            for (Annotation a : annotations) {
                annotated |= NOT_THE_BODY.contains(a.annotationType());
            }
            if (!annotated) {
                return true;
            }
        }
        return false;
    }
}
