package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Credentials that a user writes in a sentence, named by a multi-word name ("the AWS secret key is ...", "my openai
 * key: ...") rather than by an identifier ({@code SECRET_KEY=}), and legacy OpenAI keys without their marker. Found in
 * a new user's trial: both went through to memory unredacted.
 */
class ProseCredentialTest {

    private static final SecretScanner SCANNER = SecretScanner.bundled();
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String AWS_ALPHABET = ALNUM + "/+";

    /** Random tokens from a fixed seed: many draws, so the test does not hinge on one lucky string. */
    private static List<String> tokens(String alphabet, int length, long seed) {
        Random random = new Random(seed);
        return java.util.stream.IntStream.range(0, 200)
                .mapToObj(i -> {
                    StringBuilder b = new StringBuilder(length);
                    for (int j = 0; j < length; j++) {
                        b.append(alphabet.charAt(random.nextInt(alphabet.length())));
                    }
                    return b.toString();
                })
                .toList();
    }

    private static void assertRedactedExactly(String text, String secret) {
        List<Finding> found = SCANNER.scan(text);
        assertThat(found)
                .as(text)
                .singleElement()
                .satisfies(f -> assertThat(text.substring(f.start(), f.end())).isEqualTo(secret));
    }

    @Test
    void aLegacyOpenAiKeyWithoutItsMarker_shouldBeFound_afterAProseName() {
        for (String body : tokens(ALNUM, 48, 1)) {
            String key = "sk-" + body;
            assertRedactedExactly("my openai key: " + key, key);
        }
    }

    @Test
    void aLegacyOpenAiKeyWithoutItsMarker_shouldBeFound_withNoNameAtAll() {
        for (String body : tokens(ALNUM, 48, 2)) {
            String key = "sk-" + body;
            assertRedactedExactly("use " + key + " for the eval runs", key);
        }
    }

    @Test
    void anAwsSecretKeyNamedInProse_shouldBeFound() {
        for (String secret : tokens(AWS_ALPHABET, 40, 3)) {
            assertRedactedExactly("the AWS secret key is " + secret, secret);
        }
    }

    /**
     * Base64 has {@code /} in its alphabet, so one AWS secret access key in 64 starts with it; the scanner took those for
     * absolute paths (references to a secret kept elsewhere) and let them through, under every rule.
     */
    @Test
    void anAwsSecretKeyStartingWithASlash_shouldBeFound_notTakenForAPath() {
        for (String secret :
                List.of("/WAdrC5ITkXemjaBFe8yjpKqVv2qds2/RTmKQnBj", "/2NLq0Vr8/fHTm/Q1kTtOr6F59KZ8Ky1torCqpQJ")) {
            assertRedactedExactly("the AWS secret key is " + secret, secret);
            assertRedactedExactly("aws_secret_access_key = " + secret, secret);
        }
    }

    @Test
    void pathsAfterACredentialName_shouldStayReferences() {
        for (String text : List.of(
                "aws_secret_access_key = /run/secrets/aws_secret_access_key",
                "the secret key is /home/alice/.aws/credentials",
                "api_key: /etc/cairn/keys/OpenAiProductionKey2026.txt",
                "token: /var/run/secrets/kubernetes.io/serviceaccount/token")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
        assertThat(SecretScanner.isSlashLedToken("/WAdrC5ITkXemjaBFe8yjpKqVv2qds2/RTmKQnBj"))
                .isTrue();
        assertThat(SecretScanner.isSlashLedToken("/var/lib/docker/overlay2")).isFalse();
        assertThat(SecretScanner.isSlashLedToken("/srv/AbCdEf123456GhIjKl/config.yaml"))
                .isFalse();
    }

    @Test
    void aCredentialNamedByProviderAndKindWords_shouldBeFound_afterColonEqualsIsOrShi() {
        List<String> secrets = tokens(ALNUM, 32, 4);
        List<String> texts = List.of(
                "the openai key is %s",
                "my anthropic api key: %s",
                "our stripe secret key = %s",
                "the github access token is %s",
                "Groq API key is %s, keep it safe",
                "the datadog app key was %s",
                "my openai key 是 %s");
        for (int i = 0; i < texts.size(); i++) {
            String secret = secrets.get(i);
            assertRedactedExactly(texts.get(i).formatted(secret), secret);
        }
    }

    @Test
    void ordinaryProseAboutKeysAndTokens_shouldNotBeFlagged() {
        for (String text : List.of(
                "the secret key is to keep it simple",
                "my api key is in the vault",
                "the api key is stored in 1password",
                "token is expired",
                "the access token is short-lived and refreshed every hour",
                "my openai key is sk-...",
                "my openai key is <your-key>",
                "the openai key: sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "the AWS secret key is xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "the secret key is the one in ~/.aws/credentials",
                "the api key is OPENAI_API_KEY in the environment",
                "the AWS secret key is wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "the primary key is customer_id_and_region",
                "the sort key is created_at_timestamp_desc",
                "the partition key is tenantIdentifierV2",
                "the api key is your-api-key-here")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void hashesUuidsAndCommitShasInProse_shouldNotBeFlagged() {
        for (String text : List.of(
                "commit is 3f786850e387550fdab836ed7e6dc881de23001b",
                "the key is 3f786850e387550fdab836ed7e6dc881de23001b",
                "the cache key is e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "the idempotency key is 123e4567-e89b-12d3-a456-426614174000",
                "the api key id is 123e4567-e89b-12d3-a456-426614174000",
                "the md5 key is d41d8cd98f00b204e9800998ecf8427e",
                "the git sha is 3f2a9c1")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void skFollowedByALongWordOrPath_shouldNotBeALegacyOpenAiKey() {
        for (String text : List.of(
                "the sk-learn docs",
                "task-" + "a".repeat(48),
                "disk-abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv",
                "sk-" + "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstuv")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }
}
