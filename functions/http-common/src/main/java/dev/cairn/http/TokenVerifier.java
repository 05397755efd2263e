package dev.cairn.http;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Verifies a bearer JWT (signature, issuer, expiry) with SmallRye JWT and turns its {@code sub} and {@code teams}
 * claims into a {@link Caller}. Claims outside the id grammar make the token unusable rather than being cleaned.
 */
public final class TokenVerifier {

    private final DefaultJWTParser parser;

    public TokenVerifier(VerificationKeys keys) {
        JWTAuthContextInfo info = keys.publicKey() != null
                ? new JWTAuthContextInfo(keys.publicKey(), keys.issuer())
                : new JWTAuthContextInfo(keys.keyLocation(), keys.issuer());
        info.setExpGracePeriodSecs(30);
        this.parser = new DefaultJWTParser(info);
    }

    public Caller verify(String token) {
        JsonWebToken jwt;
        try {
            jwt = parser.parse(token);
        } catch (ParseException e) {
            throw new Unauthenticated("the bearer token is invalid, expired or not issued for this server");
        }
        String sub = jwt.getSubject();
        if (sub == null || !Id.isValid(sub)) {
            throw new Unauthenticated("the token's sub claim is missing or not a valid user id");
        }
        Object claim = jwt.getClaim("teams");
        Set<Id> teams = new LinkedHashSet<>();
        if (claim instanceof Collection<?> values) {
            for (Object v : values) {
                String team = v instanceof jakarta.json.JsonString js ? js.getString() : String.valueOf(v);
                if (!Id.isValid(team)) {
                    throw new Unauthenticated("the token's teams claim holds an invalid team id");
                }
                teams.add(new Id(team));
            }
        } else if (claim != null) {
            throw new Unauthenticated("the token's teams claim must be an array of team ids");
        }
        return new Caller(new Id(sub), teams);
    }
}
