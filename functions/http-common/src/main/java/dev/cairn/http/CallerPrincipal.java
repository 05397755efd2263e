package dev.cairn.http;

import dev.cairn.model.identity.Caller;
import jakarta.ws.rs.core.SecurityContext;
import java.security.Principal;

/** The verified caller, carried on the request's {@link SecurityContext}. */
public record CallerPrincipal(Caller caller) implements Principal {

    @Override
    public String getName() {
        return caller.user().value();
    }

    /** The verified caller of the current request; the auth filter guarantees one on every /v1 route. */
    public static Caller of(SecurityContext context) {
        if (context != null && context.getUserPrincipal() instanceof CallerPrincipal p) {
            return p.caller();
        }
        throw new Unauthenticated("a bearer token is required");
    }
}
