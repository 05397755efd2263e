package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import io.smallrye.jwt.build.Jwt;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class TokenVerifierTest {

    private static KeyPair keys;
    private static KeyPair otherKeys;
    private static TokenVerifier verifier;

    @BeforeAll
    static void keys() throws Exception {
        KeyPairGenerator gen = KeyPairGenerator.getInstance("RSA");
        gen.initialize(2048);
        keys = gen.generateKeyPair();
        otherKeys = gen.generateKeyPair();
        verifier = new TokenVerifier(new VerificationKeys() {
            @Override
            public PublicKey publicKey() {
                return keys.getPublic();
            }

            @Override
            public String issuer() {
                return "cairn-test";
            }
        });
    }

    @Test
    void verify_shouldTurnSubAndTeamsIntoACaller() {
        String token = Jwt.issuer("cairn-test")
                .subject("alice")
                .claim("teams", List.of("acme", "beta"))
                .expiresIn(Duration.ofMinutes(5))
                .sign(keys.getPrivate());
        Caller caller = verifier.verify(token);
        assertThat(caller.user()).isEqualTo(new Id("alice"));
        assertThat(caller.teams()).containsExactlyInAnyOrder(new Id("acme"), new Id("beta"));
    }

    @Test
    void verify_shouldRefuseForeignSignaturesWrongIssuersAndExpiredTokens() {
        String foreign = Jwt.issuer("cairn-test")
                .subject("alice")
                .claim("teams", List.of("acme"))
                .expiresIn(Duration.ofMinutes(5))
                .sign(otherKeys.getPrivate());
        String wrongIssuer = Jwt.issuer("someone-else")
                .subject("alice")
                .claim("teams", List.of("acme"))
                .expiresIn(Duration.ofMinutes(5))
                .sign(keys.getPrivate());
        String expired = Jwt.issuer("cairn-test")
                .subject("alice")
                .claim("teams", List.of("acme"))
                .issuedAt(Instant.now().minusSeconds(7200))
                .expiresAt(Instant.now().minusSeconds(3600))
                .sign(keys.getPrivate());
        for (String bad : List.of(foreign, wrongIssuer, expired, "garbage", "")) {
            assertThatThrownBy(() -> verifier.verify(bad)).isInstanceOf(Unauthenticated.class);
        }
    }

    @Test
    void aRefusal_shouldSayWhetherTheTokenExpired_orWasSignedByAnotherKey() {
        String foreign = Jwt.issuer("cairn-test")
                .subject("alice")
                .expiresIn(Duration.ofMinutes(5))
                .sign(otherKeys.getPrivate());
        String expired = Jwt.issuer("cairn-test")
                .subject("alice")
                .issuedAt(Instant.now().minusSeconds(7200))
                .expiresAt(Instant.now().minusSeconds(3600))
                .sign(keys.getPrivate());
        String expiredAndForeign = Jwt.issuer("cairn-test")
                .subject("alice")
                .issuedAt(Instant.now().minusSeconds(7200))
                .expiresAt(Instant.now().minusSeconds(3600))
                .sign(otherKeys.getPrivate());

        assertThatThrownBy(() -> verifier.verify(expired)).hasMessageContaining("has expired: mint a new one");
        assertThatThrownBy(() -> verifier.verify(foreign)).hasMessageContaining("not signed by this server's key");
        // a foreign signature is what decides: whether someone else's token has expired is not ours to say
        assertThatThrownBy(() -> verifier.verify(expiredAndForeign))
                .hasMessageContaining("not signed by this server's key");
        assertThatThrownBy(() -> verifier.verify("garbage")).hasMessageContaining("invalid, expired or not issued");
    }

    @Test
    void verify_shouldRefuseClaimsOutsideTheIdGrammar_ratherThanCleanThem() {
        String badSub = Jwt.issuer("cairn-test")
                .subject("Alice")
                .claim("teams", List.of("acme"))
                .expiresIn(Duration.ofMinutes(5))
                .sign(keys.getPrivate());
        String badTeam = Jwt.issuer("cairn-test")
                .subject("alice")
                .claim("teams", List.of("../acme"))
                .expiresIn(Duration.ofMinutes(5))
                .sign(keys.getPrivate());
        assertThatThrownBy(() -> verifier.verify(badSub)).hasMessageContaining("sub");
        assertThatThrownBy(() -> verifier.verify(badTeam)).hasMessageContaining("teams");
    }

    @Test
    void verify_shouldAcceptATokenWithoutTeams_asMemberOfNone() {
        String token = Jwt.issuer("cairn-test")
                .subject("alice")
                .expiresIn(Duration.ofMinutes(5))
                .sign(keys.getPrivate());
        assertThat(verifier.verify(token).teams()).isEmpty();
    }

    @Test
    void verify_withAKeySetLocation_shouldPickTheKeyByKid_andRefuseTokensSignedWithAnyOther() throws Exception {
        java.security.interfaces.RSAPublicKey pub = (java.security.interfaces.RSAPublicKey) keys.getPublic();
        java.util.Base64.Encoder b64 = java.util.Base64.getUrlEncoder().withoutPadding();
        String jwks = "{\"keys\":[{\"kty\":\"RSA\",\"kid\":\"k1\",\"alg\":\"RS256\",\"use\":\"sig\","
                + "\"n\":\"" + b64.encodeToString(unsigned(pub.getModulus())) + "\",\"e\":\""
                + b64.encodeToString(unsigned(pub.getPublicExponent())) + "\"}]}";
        java.nio.file.Path file = java.nio.file.Files.createTempFile("jwks", ".json");
        java.nio.file.Files.writeString(file, jwks);
        TokenVerifier byLocation = new TokenVerifier(new VerificationKeys() {
            @Override
            public PublicKey publicKey() {
                return null;
            }

            @Override
            public String keyLocation() {
                return file.toUri().toString();
            }

            @Override
            public String issuer() {
                return "https://issuer.example";
            }
        });
        String good = Jwt.issuer("https://issuer.example")
                .subject("alice")
                .claim("teams", List.of("acme"))
                .expiresIn(Duration.ofMinutes(5))
                .jws()
                .keyId("k1")
                .sign(keys.getPrivate());
        String foreign = Jwt.issuer("https://issuer.example")
                .subject("alice")
                .claim("teams", List.of("acme"))
                .expiresIn(Duration.ofMinutes(5))
                .jws()
                .keyId("k1")
                .sign(otherKeys.getPrivate());
        assertThat(byLocation.verify(good).teams()).containsExactly(new Id("acme"));
        assertThatThrownBy(() -> byLocation.verify(foreign)).isInstanceOf(Unauthenticated.class);
    }

    private static byte[] unsigned(java.math.BigInteger n) {
        byte[] b = n.toByteArray();
        return b[0] == 0 ? java.util.Arrays.copyOfRange(b, 1, b.length) : b;
    }

    @Test
    void verify_shouldAnswerARepeatedTokenFromTheCache_untilTheTokensExp() {
        // GIVEN a verifier whose cache runs on a clock the test moves, and a token valid for two minutes
        java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
        TokenVerifier cached = new TokenVerifier(
                new VerificationKeys() {
                    @Override
                    public PublicKey publicKey() {
                        return keys.getPublic();
                    }

                    @Override
                    public String issuer() {
                        return "cairn-test";
                    }
                },
                nanos::get);
        String token = Jwt.issuer("cairn-test")
                .subject("alice")
                .claim("teams", List.of("acme"))
                .expiresIn(Duration.ofMinutes(2))
                .sign(keys.getPrivate());

        // WHEN it is presented three times within its lifetime
        Caller first = cached.verify(token);
        Caller second = cached.verify(token);
        nanos.addAndGet(Duration.ofSeconds(90).toNanos());
        Caller third = cached.verify(token);

        // THEN it was checked once and answered alike every time
        assertThat(cached.verifications()).isEqualTo(1);
        assertThat(second).isEqualTo(first);
        assertThat(third).isEqualTo(first);

        // WHEN its exp has passed on the cache's clock THEN it is checked again, not answered from the cache
        nanos.addAndGet(Duration.ofSeconds(31).toNanos());
        cached.verify(token);
        assertThat(cached.verifications()).isEqualTo(2);
    }

    @Test
    void verify_shouldCheckARefusedTokenEveryTime_neverCachingTheRefusal() {
        TokenVerifier fresh = new TokenVerifier(new VerificationKeys() {
            @Override
            public PublicKey publicKey() {
                return keys.getPublic();
            }

            @Override
            public String issuer() {
                return "cairn-test";
            }
        });
        String foreign = Jwt.issuer("cairn-test")
                .subject("alice")
                .claim("teams", List.of("acme"))
                .expiresIn(Duration.ofMinutes(5))
                .sign(otherKeys.getPrivate());
        for (int i = 0; i < 3; i++) {
            assertThatThrownBy(() -> fresh.verify(foreign)).isInstanceOf(Unauthenticated.class);
        }
        assertThat(fresh.verifications()).isEqualTo(3);
    }
}
