package dev.cairn.http;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

/** Token verification for deployed functions: the identity provider's public key (PEM) and issuer. */
@ConfigMapping(prefix = "cairn.auth")
public interface AuthConfig {

    /** PEM-encoded RSA public key (X.509 SubjectPublicKeyInfo). */
    Optional<String> publicKey();

    @WithDefault("cairn")
    String issuer();
}
