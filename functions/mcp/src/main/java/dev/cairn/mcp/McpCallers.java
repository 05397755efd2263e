package dev.cairn.mcp;

import dev.cairn.http.CallerPrincipal;
import dev.cairn.http.TokenVerifier;
import dev.cairn.http.Unauthenticated;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import io.quarkiverse.mcp.server.InitialRequest;
import io.quarkiverse.mcp.server.McpConnection;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * Who calls a tool, and for which team. Over HTTP the caller is the one {@link BearerMechanism} verified from the
 * request's bearer token; over stdio there is no request, so the process's own token ({@code cairn.mcp.stdio-token},
 * which the local server's {@code mcp} command mints from the data directory) is verified the same way. The team is
 * the tool's {@code team} argument, checked against the token like a path's {@code {team}}; without one, the token's
 * only team.
 */
@ApplicationScoped
public class McpCallers {

    private final Instance<SecurityIdentity> identity;
    private final TokenVerifier verifier;
    private final Optional<String> stdioToken;

    public McpCallers(Instance<SecurityIdentity> identity, TokenVerifier verifier, McpConfig config) {
        this.identity = identity;
        this.verifier = verifier;
        this.stdioToken = config.stdioToken();
    }

    public Caller caller(McpConnection connection) {
        InitialRequest init = connection == null ? null : connection.initialRequest();
        if (init != null && init.transport() == InitialRequest.Transport.STDIO) {
            return verifier.verify(stdioToken.orElseThrow(() -> new Unauthenticated(
                    "this stdio server has no token: start it with the local server's `mcp --team TEAM` command")));
        }
        if (identity.isResolvable() && identity.get().getPrincipal() instanceof CallerPrincipal p) {
            return p.caller();
        }
        throw new Unauthenticated("this MCP endpoint needs an Authorization: Bearer <token> header");
    }

    /** The team a tool acts on: the argument when given (the caller must belong to it), else the token's only team. */
    public static Id team(Caller caller, String team) {
        if (team != null) {
            return caller.requireMember(Id.of("team", team));
        }
        if (caller.teams().size() == 1) {
            return caller.teams().iterator().next();
        }
        throw new InvalidInput(
                "team",
                caller.teams().isEmpty()
                        ? "is required, and the token grants no team: mint one with --team"
                        : "is required when the token grants several teams ("
                                + caller.teams().stream()
                                        .map(Id::value)
                                        .sorted()
                                        .collect(Collectors.joining(", "))
                                + ")");
    }
}
