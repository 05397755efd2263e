package dev.cairn.http.testing;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import io.smallrye.jwt.build.Jwt;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;

/**
 * A throw-away token issuer — a fresh RSA key pair per test run, its public half configured as the function's — and
 * a fresh data directory, so no state leaks from an earlier run. Shared by every function's Lambda tests (this
 * module's test-jar).
 */
public class TestIssuer implements QuarkusTestResourceLifecycleManager {

    public static final String ISSUER = "https://issuer.test";
    private static KeyPair keys;

    @Override
    public Map<String, String> start() {
        try {
            KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
            gen.initialize(2048);
            keys = gen.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        String pem = "-----BEGIN PUBLIC KEY-----\n"
                + Base64.getMimeEncoder().encodeToString(keys.getPublic().getEncoded()) + "\n-----END PUBLIC KEY-----";
        try {
            Path data = Files.createTempDirectory(Path.of("target"), "test-data-");
            return Map.of("cairn.auth.public-key", pem, "cairn.auth.issuer", ISSUER, "cairn.data-dir", data.toString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void stop() {}

    public static String token(String user, String... teams) {
        return Jwt.issuer(ISSUER)
                .subject(user)
                .claim("teams", List.of(teams))
                .expiresIn(Duration.ofMinutes(10))
                .sign(keys.getPrivate());
    }
}
