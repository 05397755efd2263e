package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.infra.Routes;
import jakarta.ws.rs.HttpMethod;
import jakarta.ws.rs.Path;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The CDK app's route list ({@link Routes#ALL}) against the JAX-RS resources of the function modules, read by
 * reflection from the classes on this test's classpath: a route added, renamed or moved on one side only fails here.
 * Each route is written {@code METHOD path -> function}, the path in API Gateway's form (see {@link #apiGatewayPath}).
 */
class RoutesCrossCheckTest {

    /** The modules deployed as API functions: each answers its routes of {@link Routes#ALL}. */
    private static final List<String> FUNCTIONS =
            List.of("recall", "session-summarize", "fact-extract", "team-sync", "secret-scan", "decay-job");

    /**
     * Routes a function's server answers but the public API must not: if one of them ever shows up as a resource
     * method it is skipped, and none of them may be routed by API Gateway. Health, metrics and OpenAPI come from
     * Quarkus extensions (not resources of ours) and serve only the local server and the Lambda's own checks; the
     * local server ({@code functions/local}) adds no route of its own today — one would be listed here.
     */
    private static final Set<String> EXCLUDED = Set.of(
            "GET /q/health",
            "GET /q/health/live",
            "GET /q/health/ready", // readiness of the local server
            "GET /q/metrics", // Prometheus scrape of the local server; Lambdas report to CloudWatch
            "GET /q/openapi"); // the API description, published with the repository rather than served

    private static final Pattern MODULE_DIR = Pattern.compile("/functions/([^/]+)/target/");
    private static final Pattern MODULE_JAR = Pattern.compile("/cairn-([a-z-]+?)-\\d[^/]*\\.jar$");

    private static final Set<String> resourceRoutes = new TreeSet<>();
    private static final Set<String> modulesScanned = new TreeSet<>();

    @BeforeAll
    static void scan() throws IOException {
        ClassLoader loader = RoutesCrossCheckTest.class.getClassLoader();
        for (URL root : Collections.list(loader.getResources("dev/cairn"))) {
            String module = module(root);
            for (String className : classNames(root)) {
                Class<?> type;
                try {
                    type = Class.forName(className, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    continue; // not loadable without a runtime this test does not start: not a resource either
                }
                for (String route : routesOf(type)) {
                    if (!EXCLUDED.contains(route)) {
                        resourceRoutes.add(route + " -> " + module);
                    }
                }
            }
            modulesScanned.add(module);
        }
    }

    @Test
    void everyResourceMethodOfAFunction_shouldHaveARouteOwnedByThatFunction() {
        assertThat(modulesScanned).as("function modules on the classpath").containsAll(FUNCTIONS);
        for (String function : FUNCTIONS) {
            assertThat(resourceRoutes)
                    .as("resource methods found in %s", function)
                    .anyMatch(r -> r.endsWith(" -> " + function));
        }

        assertThat(routesOfTheCdk()).containsAll(resourceRoutes);
    }

    @Test
    void everyRouteOfTheCdk_shouldBeAnsweredByAResourceMethodOfItsFunction() {
        assertThat(resourceRoutes).containsAll(routesOfTheCdk());
    }

    @Test
    void noExcludedRoute_shouldBeRoutedByApiGateway() {
        Set<String> routed = new TreeSet<>();
        Routes.ALL.forEach(r -> routed.add(r.method() + " " + r.path()));

        assertThat(routed).doesNotContainAnyElementsOf(EXCLUDED);
    }

    @Test
    void apiGatewayPath_shouldKeepPlainParametersAndColonLiterals_andTurnAParameterWithASuffixIntoAGreedyOne() {
        assertThat(apiGatewayPath("/v1/teams/{team}/memories/{id}")).isEqualTo("/v1/teams/{team}/memories/{id}");
        assertThat(apiGatewayPath("/v1/teams/{team}/memories:batch")).isEqualTo("/v1/teams/{team}/memories:batch");
        assertThat(apiGatewayPath("/v1/teams/{team}/memories/{id}:restore"))
                .isEqualTo("/v1/teams/{team}/memories/{proxy+}");
        assertThat(apiGatewayPath("/v1/teams/{team: [a-z]+}/x/")).isEqualTo("/v1/teams/{team}/x");
    }

    private static Set<String> routesOfTheCdk() {
        Set<String> routes = new TreeSet<>();
        Routes.ALL.forEach(r -> routes.add(r.method() + " " + r.path() + " -> " + r.function()));
        return routes;
    }

    /**
     * API Gateway cannot match a parameter followed by a literal in one segment ({@code {id}:restore}); the CDK
     * routes such paths with a greedy parameter in that segment's place ({@link Routes}' comment). A parameter's
     * JAX-RS regular expression ({@code {id: [0-9]+}}) is not part of its name.
     */
    static String apiGatewayPath(String jaxRsPath) {
        List<String> segments = new ArrayList<>();
        for (String segment : jaxRsPath.split("/")) {
            if (segment.isEmpty()) {
                continue;
            }
            segment = segment.replaceAll("\\{\\s*([^}:\\s]+)\\s*:[^}]*}", "{$1}");
            if (segment.contains("{") && !segment.matches("\\{[^}]+}")) {
                segments.add("{proxy+}");
                break;
            }
            segments.add(segment);
        }
        return "/" + String.join("/", segments);
    }

    /** {@code METHOD path} of each resource method the class declares (class-level and method-level {@code @Path}). */
    private static List<String> routesOf(Class<?> type) {
        List<String> routes = new ArrayList<>();
        Path base = type.getAnnotation(Path.class);
        Method[] methods;
        try {
            methods = type.getDeclaredMethods();
        } catch (LinkageError e) {
            if (base != null) {
                throw new AssertionError("resource " + type.getName() + " cannot be read: " + e, e);
            }
            return routes;
        }
        for (Method m : methods) {
            String verb = httpMethod(m);
            if (verb == null) {
                continue; // a sub-resource locator or a plain method: no route of its own
            }
            Path own = m.getAnnotation(Path.class);
            String path = (base == null ? "" : base.value()) + "/" + (own == null ? "" : own.value());
            routes.add(verb + " " + apiGatewayPath(path));
        }
        return routes;
    }

    private static String httpMethod(Method m) {
        for (Annotation a : m.getAnnotations()) {
            HttpMethod verb = a.annotationType().getAnnotation(HttpMethod.class);
            if (verb != null) {
                return verb.value();
            }
        }
        return null;
    }

    /** The module a classpath root comes from: its reactor directory or its artifact's jar name. */
    private static String module(URL root) {
        String location = root.toString();
        Matcher dir = MODULE_DIR.matcher(location);
        if (dir.find()) {
            return dir.group(1);
        }
        Matcher jar = MODULE_JAR.matcher(location.replaceFirst("!/.*$", ""));
        return jar.find() ? jar.group(1) : location;
    }

    private static List<String> classNames(URL root) throws IOException {
        List<String> names = new ArrayList<>();
        if (root.getProtocol().equals("jar")) {
            JarURLConnection connection = (JarURLConnection) root.openConnection();
            connection.setUseCaches(false); // a cached JarFile is the class loader's: closing it would break loading
            try (JarFile jar = connection.getJarFile()) {
                jar.stream()
                        .map(e -> e.getName())
                        .filter(n -> n.startsWith("dev/cairn/") && n.endsWith(".class"))
                        .forEach(n -> names.add(className(n)));
            }
            return names;
        }
        java.nio.file.Path dir;
        try {
            dir = java.nio.file.Path.of(root.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(root.toString(), e);
        }
        java.nio.file.Path classes = dir.getParent().getParent();
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            files.filter(f -> f.toString().endsWith(".class"))
                    .forEach(f ->
                            names.add(className(classes.relativize(f).toString().replace('\\', '/'))));
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        return names;
    }

    private static String className(String entry) {
        return entry.substring(0, entry.length() - ".class".length()).replace('/', '.');
    }
}
