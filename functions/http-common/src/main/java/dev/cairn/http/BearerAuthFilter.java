package dev.cairn.http;

import dev.cairn.model.identity.Caller;
import jakarta.annotation.Priority;
import jakarta.inject.Inject;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.ext.Provider;
import java.security.Principal;

/** Every {@code /v1} route needs a verified bearer token; operations routes ({@code /q/...}) do not. */
@Provider
@Priority(Priorities.AUTHENTICATION)
public class BearerAuthFilter implements ContainerRequestFilter {

    private static final String PREFIX = "Bearer ";

    @Inject
    TokenVerifier verifier;

    @Override
    public void filter(ContainerRequestContext request) {
        String path = request.getUriInfo().getPath();
        if (!path.startsWith("/v1/") && !path.equals("/v1")) {
            return;
        }
        String header = request.getHeaderString(HttpHeaders.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            throw new Unauthenticated("this route needs an Authorization: Bearer <token> header");
        }
        if (header.strip().equalsIgnoreCase(PREFIX.strip())) {
            throw new Unauthenticated("the Authorization header has no token after Bearer");
        }
        if (!header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            throw new Unauthenticated("the Authorization header must use the Bearer scheme");
        }
        Caller caller = verifier.verify(header.substring(PREFIX.length()).trim());
        boolean secure = request.getSecurityContext() != null
                && request.getSecurityContext().isSecure();
        request.setSecurityContext(new SecurityContext() {
            @Override
            public Principal getUserPrincipal() {
                return new CallerPrincipal(caller);
            }

            @Override
            public boolean isUserInRole(String role) {
                return false;
            }

            @Override
            public boolean isSecure() {
                return secure;
            }

            @Override
            public String getAuthenticationScheme() {
                return "Bearer";
            }
        });
    }
}
