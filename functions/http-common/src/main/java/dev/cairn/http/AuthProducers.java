package dev.cairn.http;

import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.security.KeyFactory;
import java.security.PublicKey;
import java.security.spec.X509EncodedKeySpec;
import java.util.Base64;

/** Builds the token verifier; a deployment may replace {@link VerificationKeys} (the local server does). */
@ApplicationScoped
public class AuthProducers {

    @Produces
    @ApplicationScoped
    TokenVerifier tokenVerifier(VerificationKeys keys) {
        return new TokenVerifier(keys);
    }

    @Produces
    @DefaultBean
    @ApplicationScoped
    VerificationKeys configuredKeys(AuthConfig config) {
        String issuer = config.issuer();
        if (config.publicKey().isEmpty() && config.publicKeyLocation().isPresent()) {
            String location = config.publicKeyLocation().get();
            return new VerificationKeys() {
                @Override
                public PublicKey publicKey() {
                    return null;
                }

                @Override
                public String keyLocation() {
                    return location;
                }

                @Override
                public String issuer() {
                    return issuer;
                }
            };
        }
        String pem = config.publicKey()
                .orElseThrow(() -> new IllegalStateException(
                        "neither cairn.auth.public-key nor cairn.auth.public-key-location is set: configure the token "
                                + "issuer's public key (PEM) or the URL of its key set (JWKS)"));
        PublicKey key = parsePem(pem);
        return new VerificationKeys() {
            @Override
            public PublicKey publicKey() {
                return key;
            }

            @Override
            public String issuer() {
                return issuer;
            }
        };
    }

    public static PublicKey parsePem(String pem) {
        String base64 = pem.replaceAll("-----(BEGIN|END) PUBLIC KEY-----", "").replaceAll("\\s", "");
        try {
            return KeyFactory.getInstance("RSA")
                    .generatePublic(new X509EncodedKeySpec(Base64.getDecoder().decode(base64)));
        } catch (java.security.GeneralSecurityException | IllegalArgumentException e) {
            throw new IllegalStateException("cairn.auth.public-key is not a PEM RSA public key", e);
        }
    }
}
