package dev.cairn.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Token verification for deployed functions: the identity provider's public key (PEM) and issuer. */
@ConfigMapping(prefix = "cairn.auth")
public interface AuthConfig {

    /** PEM-encoded RSA public key (X.509 SubjectPublicKeyInfo). */
    Optional<String> publicKey();

    /**
     * Where the issuer publishes its JSON Web Key Set ({@code https://…/.well-known/jwks.json}); used when no
     * {@link #publicKey()} is set, so a provider that rotates keys needs no redeploy.
     */
    Optional<String> publicKeyLocation();

    @WithDefault("cairn")
    String issuer();
}
