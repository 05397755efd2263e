package dev.cairn.local;

import dev.cairn.embedded.EmbeddedConfig;
import dev.cairn.http.VerificationKeys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.nio.file.Path;
import java.security.PublicKey;

/** The local server verifies the tokens that its own {@code token} command mints. */
@ApplicationScoped
public class LocalKeysProducer {

    @Produces
    @ApplicationScoped
    VerificationKeys localKeys(EmbeddedConfig config) {
        PublicKey key = LocalSigningKeys.loadOrCreate(Path.of(config.dataDir())).publicKey();
        return new VerificationKeys() {
            @Override
            public PublicKey publicKey() {
                return key;
            }

            @Override
            public String issuer() {
                return LocalSigningKeys.ISSUER;
            }
        };
    }
}
