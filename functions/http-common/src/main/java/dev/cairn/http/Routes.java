package dev.cairn.http;

import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.spi.Bean;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The routes the resource classes of this deployment declare (class {@code @Path} + method {@code @Path} + HTTP
 * method), to tell a wrong method from a wrong path. Quarkus REST picks a root class by its path before it looks at
 * methods, so a wrong method on some routes came back 404 and on others 405, without an {@code Allow} header either
 * way (a new user's trial). {@link ProblemMappers} answers every routing miss from this table instead: 405 with
 * {@code Allow} when the path is a route, 404 when it is none.
 */
final class Routes {

    record Route(Pattern path, String template, String method) {}

    private static final Pattern PARAMETER = Pattern.compile("\\{[^}]+}");
    private static volatile List<Route> deployed;

    private Routes() {}

    /** The methods {@code path} takes in this deployment, sorted; HEAD beside GET (JAX-RS answers it); empty if none. */
    static Set<String> allowed(String path) {
        return allowed(deployed(), path);
    }

    static Set<String> allowed(List<Route> routes, String path) {
        // as JAX-RS matching does (spec 3.7.2), the template with the most literal characters wins the path:
        // "memories/{id}:restore" takes "memories/m1:restore" before "memories/{id}" can
        int best = -1;
        Set<String> methods = new TreeSet<>();
        for (Route r : routes) {
            if (!r.path().matcher(path).matches()) {
                continue;
            }
            int literal = PARAMETER.matcher(r.template()).replaceAll("").length();
            if (literal > best) {
                best = literal;
                methods.clear();
            }
            if (literal == best) {
                methods.add(r.method());
                if (r.method().equals("GET")) {
                    methods.add("HEAD");
                }
            }
        }
        return methods;
    }

    /** The routes of these resource classes. */
    static List<Route> of(Collection<Class<?>> classes) {
        List<Route> routes = new ArrayList<>();
        for (Class<?> type : classes) {
            Path base = type.getAnnotation(Path.class);
            if (base == null) {
                continue;
            }
            for (Method m : type.getMethods()) {
                String method = httpMethod(m);
                if (method == null) {
                    continue;
                }
                Path own = m.getAnnotation(Path.class);
                String template = join(base.value(), own == null ? "" : own.value());
                routes.add(new Route(regex(template), template, method));
            }
        }
        return routes;
    }

    private static List<Route> deployed() {
        List<Route> routes = deployed;
        if (routes == null) {
            Set<Class<?>> classes = new LinkedHashSet<>();
            ArcContainer arc = Arc.container();
            if (arc != null) {
                for (Bean<?> bean : arc.beanManager().getBeans(Object.class, Any.Literal.INSTANCE)) {
                    classes.add(bean.getBeanClass());
                }
            }
            routes = List.copyOf(of(classes));
            deployed = routes;
        }
        return routes;
    }

    private static String httpMethod(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod h = a.annotationType().getAnnotation(HttpMethod.class);
            if (h != null) {
                return h.value();
            }
        }
        return null;
    }

    private static String join(String base, String own) {
        String a = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        String b = own.startsWith("/") ? own.substring(1) : own;
        String joined = b.isEmpty() ? a : a + "/" + b;
        return joined.startsWith("/") ? joined : "/" + joined;
    }

    /**
     * A template's literal parts matched as they are, each {@code {parameter}} as one path segment or part of one,
     * without a colon: no id holds one (ids refuse it), and a colon in a segment is a custom method ({@code :restore}).
     * So {@code memories/m1:restor} is no route (404) rather than {@code memories/{id}} with an id {@code m1:restor},
     * whose 405 advised methods that could only answer "invalid id" (a new user's trial).
     */
    private static Pattern regex(String template) {
        StringBuilder out = new StringBuilder();
        Matcher p = PARAMETER.matcher(template);
        int at = 0;
        while (p.find()) {
            out.append(Pattern.quote(template.substring(at, p.start()))).append("[^/:]+");
            at = p.end();
        }
        out.append(Pattern.quote(template.substring(at)));
        return Pattern.compile(out + "/?");
    }
}
