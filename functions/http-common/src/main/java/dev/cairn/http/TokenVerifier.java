package dev.cairn.http;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.Ticker;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import io.smallrye.jwt.auth.principal.DefaultJWTParser;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.ParseException;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.jose4j.jwt.consumer.ErrorCodes;
import org.jose4j.jwt.consumer.InvalidJwtException;

/**
 * Verifies a bearer JWT (signature, issuer, expiry) with SmallRye JWT and turns its {@code sub} and {@code teams}
 * claims into a {@link Caller}. Claims outside the id grammar make the token unusable rather than being cleaned.
 *
 * <p>An agent sends the same token with every request, and parsing plus checking the signature is a fixed cost per
 * request: a verified token's caller is kept (bounded, W-TinyLFU) until the token's own {@code exp}, never longer,
 * so an expired token is verified again (and refused once past the grace period). Refusals are not kept: a bad token
 * costs its sender, not the cache.
 */
public final class TokenVerifier {

    /** Distinct live tokens remembered; an agent fleet far larger than this only re-verifies more often. */
    static final int CACHED_TOKENS = 10_000;

    private final DefaultJWTParser parser;
    private final Cache<String, Verified> verified;
    private final AtomicLong verifications = new AtomicLong();

    private record Verified(Caller caller, long expiresAtEpochSecond) {}

    public TokenVerifier(VerificationKeys keys) {
        this(keys, Ticker.systemTicker());
    }

    /** {@code ticker} drives the cache's expiry; tests move it instead of waiting. */
    TokenVerifier(VerificationKeys keys, Ticker ticker) {
        JWTAuthContextInfo info = keys.publicKey() != null
                ? new JWTAuthContextInfo(keys.publicKey(), keys.issuer())
                : new JWTAuthContextInfo(keys.keyLocation(), keys.issuer());
        info.setExpGracePeriodSecs(30);
        this.parser = new DefaultJWTParser(info);
        this.verified = Caffeine.newBuilder()
                .maximumSize(CACHED_TOKENS)
                .ticker(ticker)
                // the time left until the token's exp, by the wall clock, when it is verified
                .expireAfter(Expiry.<String, Verified>creating((token, v) ->
                        Duration.ofMillis(Math.max(0, v.expiresAtEpochSecond() * 1000 - System.currentTimeMillis()))))
                .build();
    }

    public Caller verify(String token) {
        Verified hit = verified.getIfPresent(token);
        if (hit != null) {
            return hit.caller();
        }
        JsonWebToken jwt = parse(token);
        Caller caller = caller(jwt);
        if (jwt.getExpirationTime() > 0) {
            verified.put(token, new Verified(caller, jwt.getExpirationTime()));
        }
        return caller;
    }

    /** How many tokens were parsed and checked (not answered from the cache); tests read it. */
    long verifications() {
        return verifications.get();
    }

    private JsonWebToken parse(String token) {
        verifications.incrementAndGet();
        JsonWebToken jwt;
        try {
            jwt = parser.parse(token);
        } catch (ParseException e) {
            throw new Unauthenticated(reason(e));
        }
        return jwt;
    }

    /**
     * Why a token was refused, in words that say what to do: an expired token and one signed with another key (another
     * server's, or another data directory's) are told apart, as jose4j reports them; anything else stays general.
     */
    static String reason(ParseException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidJwtException invalid) {
                if (invalid.hasExpired()) {
                    return "the bearer token has expired: mint a new one (the local server's token command, or your"
                            + " identity provider)";
                }
                if (invalid.hasErrorCode(ErrorCodes.SIGNATURE_INVALID)) {
                    return "the bearer token was not signed by this server's key: it was issued by another server or"
                            + " identity provider, or altered (a local server's token command must be given that"
                            + " server's --data-dir)";
                }
            }
        }
        return "the bearer token is invalid, expired or not issued for this server";
    }

    private static Caller caller(JsonWebToken jwt) {
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
