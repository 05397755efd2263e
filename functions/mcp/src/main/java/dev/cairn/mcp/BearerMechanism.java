package dev.cairn.mcp;

import dev.cairn.http.CallerPrincipal;
import dev.cairn.http.TokenVerifier;
import dev.cairn.http.Unauthenticated;
import dev.cairn.model.identity.Caller;
import io.quarkus.security.AuthenticationFailedException;
import io.quarkus.security.identity.IdentityProviderManager;
import io.quarkus.security.identity.SecurityIdentity;
import io.quarkus.security.identity.request.AuthenticationRequest;
import io.quarkus.security.runtime.QuarkusSecurityIdentity;
import io.quarkus.vertx.http.runtime.security.ChallengeData;
import io.quarkus.vertx.http.runtime.security.HttpAuthenticationMechanism;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpHeaders;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.Set;

/**
 * Bearer tokens for the MCP endpoint, verified by the same {@link TokenVerifier} as the HTTP API's filter. The MCP
 * routes are Vert.x routes, not JAX-RS resources, so the API's request filter never sees them: Quarkus security does,
 * and the MCP library hands the identity to every tool call. Other paths are left alone (anonymous here), so the
 * API's own filter and its problem documents stay what they were.
 */
@ApplicationScoped
public class BearerMechanism implements HttpAuthenticationMechanism {

    static final String ROOT = "/mcp";
    static final String PREFIX = "Bearer ";

    private final TokenVerifier verifier;

    public BearerMechanism(TokenVerifier verifier) {
        this.verifier = verifier;
    }

    @Override
    public Uni<SecurityIdentity> authenticate(RoutingContext context, IdentityProviderManager identityProviderManager) {
        String path = context.normalizedPath();
        if (!path.equals(ROOT) && !path.startsWith(ROOT + "/")) {
            return Uni.createFrom().nullItem();
        }
        String header = context.request().getHeader(HttpHeaders.AUTHORIZATION);
        if (header == null || header.isBlank()) {
            return Uni.createFrom().nullItem();
        }
        if (header.strip().equalsIgnoreCase(PREFIX.strip())) {
            return Uni.createFrom().failure(refused("the Authorization header has no token after Bearer"));
        }
        if (!header.regionMatches(true, 0, PREFIX, 0, PREFIX.length())) {
            return Uni.createFrom().failure(refused("the Authorization header must use the Bearer scheme"));
        }
        String token = header.substring(PREFIX.length()).trim();
        // On the calling thread, not a worker: in the Lambda (Quarkus' virtual HTTP connection) an identity that
        // arrived on a worker thread left the request unanswered for good (thread dump: the handler waiting for the
        // response, the event loops idle, the worker done), while the local server answered. Verifying with a PEM
        // key is CPU only; with a key-set location the first verification (and a key rotation) fetches the set,
        // which blocks this thread once: in a Lambda instance, which serves one request at a time, nothing waits.
        return Uni.createFrom().item(() -> identity(token));
    }

    /** A refusal whose cause carries the reason {@link McpErrorBodies} may tell the caller. */
    private static AuthenticationFailedException refused(String reason) {
        Unauthenticated cause = new Unauthenticated(reason);
        return new AuthenticationFailedException(reason, cause);
    }

    private SecurityIdentity identity(String token) {
        try {
            Caller caller = verifier.verify(token);
            return QuarkusSecurityIdentity.builder()
                    .setPrincipal(new CallerPrincipal(caller))
                    .build();
        } catch (Unauthenticated e) {
            throw new AuthenticationFailedException(e.getMessage(), e);
        }
    }

    @Override
    public Uni<ChallengeData> getChallenge(RoutingContext context) {
        return Uni.createFrom().item(new ChallengeData(401, "WWW-Authenticate", "Bearer"));
    }

    @Override
    public Set<Class<? extends AuthenticationRequest>> getCredentialTypes() {
        return Set.of();
    }
}
