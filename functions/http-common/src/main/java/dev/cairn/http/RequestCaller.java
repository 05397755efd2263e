package dev.cairn.http;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.SecurityContext;
import jakarta.ws.rs.core.UriInfo;

/**
 * Who is calling and for which team, for the request under way: the caller {@link BearerAuthFilter} verified, and the
 * route's {@code {team}} path parameter parsed with the id grammar. Resources ask for each at the point where they
 * used to parse it, so the order of the checks — and the problem a client sees first — stays what it was.
 *
 * <p>Both are read lazily: a resource that refuses a missing body before looking at the team still does.
 */
@RequestScoped
public class RequestCaller {

    private final SecurityContext security;
    private final UriInfo uri;
    private Id team;

    @Inject
    public RequestCaller(SecurityContext security, UriInfo uri) {
        this.security = security;
        this.uri = uri;
    }

    /** The verified caller; {@link Unauthenticated} (401) when the request carries none. */
    public Caller caller() {
        return CallerPrincipal.of(security);
    }

    /**
     * The route's team, validated once per request; a {@code NamespaceViolation} for field {@code team} (400, with the
     * grammar's reason) when it is not an id.
     */
    public Id team() {
        if (team == null) {
            team = Id.of("team", uri.getPathParameters().getFirst("team"));
        }
        return team;
    }
}
