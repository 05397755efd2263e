package dev.cairn.http;

import jakarta.ws.rs.container.ContainerRequestContext;
import java.net.URI;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;

/**
 * Custom-method routes such as {@code memories:batch} (the Google API style that API.md uses) must match whether a
 * client sends the colon as is or percent-encoded ({@code %3A}, as RestAssured and some HTTP libraries do). Both are
 * the same URI (RFC 3986 §6.2.2.2), so the encoded form is normalised before routing.
 */
public class ColonPaths {

    @ServerRequestFilter(preMatching = true)
    public void decodeColons(ContainerRequestContext request) {
        URI uri = request.getUriInfo().getRequestUri();
        String raw = uri.getRawPath();
        if (raw != null && (raw.contains("%3A") || raw.contains("%3a"))) {
            String path = raw.replace("%3A", ":").replace("%3a", ":");
            String query = uri.getRawQuery();
            request.setRequestUri(URI.create(
                    uri.getScheme() + "://" + uri.getRawAuthority() + path + (query == null ? "" : "?" + query)));
        }
    }
}
