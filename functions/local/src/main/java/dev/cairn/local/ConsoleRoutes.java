package dev.cairn.local;

import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The web console's static files ({@code META-INF/resources/console/}, built into the jar) get a strict
 * Content-Security-Policy: scripts and styles from this server only, no inline code, no frames, no form posts, and
 * API calls to this server (plus the origins of {@code cairn.console.api-origins}, for a console pointed at an AWS
 * deployment whose {@code corsOrigins} lists this server). A memory holding markup can then never run, even if a
 * rendering bug slipped it into the page. {@code /console} redirects to {@code /console/} so relative module paths
 * resolve.
 */
@ApplicationScoped
public class ConsoleRoutes {

    private static final Pattern INLINE_SCRIPT = Pattern.compile("<script>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern ORIGIN = Pattern.compile("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?");

    private final String policy;

    public ConsoleRoutes(@ConfigProperty(name = "cairn.console.api-origins") Optional<List<String>> apiOrigins) {
        this.policy = policy(apiOrigins.orElse(List.of()), inlineScriptHashes(indexHtml()));
    }

    private static String indexHtml() {
        try (InputStream in = ConsoleRoutes.class.getResourceAsStream("/META-INF/resources/console/index.html")) {
            return in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("the console's index.html is not readable", e);
        }
    }

    /**
     * The CSP source of each inline script in {@code html} ({@code 'sha256-…'} of its exact text). index.html carries
     * one: it starts the first page's list call while the parser is still in the head, before any script file has
     * arrived (ConsoleBench: fetching a script first cost the first page about 150 ms). Pinning its hash allows that
     * one script and nothing else inline, so the policy stays without {@code 'unsafe-inline'}; the hash is computed
     * from the file served, so an edit to the script cannot leave a stale hash behind.
     */
    static List<String> inlineScriptHashes(String html) {
        List<String> out = new ArrayList<>();
        Matcher m = INLINE_SCRIPT.matcher(html);
        while (m.find()) {
            try {
                byte[] digest =
                        MessageDigest.getInstance("SHA-256").digest(m.group(1).getBytes(StandardCharsets.UTF_8));
                out.add("'sha256-" + Base64.getEncoder().encodeToString(digest) + "'");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every JVM has SHA-256", e);
            }
        }
        return out;
    }

    void install(@Observes Router router) {
        router.route("/console/*").order(Integer.MIN_VALUE + 1).handler(rc -> {
            if (rc.request().path().equals("/console")) {
                // Vert.x matches /console with /console/*; only the bare path moves
                rc.response()
                        .setStatusCode(301)
                        .putHeader("Location", "/console/")
                        .end();
                return;
            }
            rc.response()
                    .putHeader("Content-Security-Policy", policy)
                    .putHeader("X-Content-Type-Options", "nosniff")
                    .putHeader("Referrer-Policy", "no-referrer")
                    .putHeader("Cache-Control", "no-cache");
            rc.next();
        });
    }

    /** The policy for the given extra API origins; each must be a bare origin (scheme, host, optional port). */
    static String policy(List<String> apiOrigins) {
        return policy(apiOrigins, List.of());
    }

    /** The same, allowing also the inline scripts whose CSP hashes ({@code 'sha256-…'}) are given. */
    static String policy(List<String> apiOrigins, List<String> scriptHashes) {
        List<String> connect = new ArrayList<>(List.of("'self'"));
        for (String o : apiOrigins) {
            String origin = o.trim();
            if (!ORIGIN.matcher(origin).matches()) {
                throw new IllegalArgumentException("cairn.console.api-origins must list origins such as "
                        + "https://abc123.execute-api.eu-west-1.amazonaws.com (scheme, host, optional port; no path, "
                        + "no wildcard): " + origin);
            }
            connect.add(origin);
        }
        List<String> scripts = new ArrayList<>(List.of("'self'"));
        scripts.addAll(scriptHashes);
        return "default-src 'none'; script-src " + String.join(" ", scripts)
                + "; style-src 'self'; img-src 'self' data:; connect-src "
                + String.join(" ", connect)
                + "; form-action 'none'; frame-ancestors 'none'; base-uri 'none'";
    }
}
