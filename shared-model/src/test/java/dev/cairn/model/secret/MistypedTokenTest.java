package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Provider tokens typed or pasted slightly wrong, found in a new user's trial: a GitHub token with a hyphen for its
 * underscore ({@code ghp-...}) was found only after {@code token:} and then under a generic label, Stripe keys with a
 * mistyped mode ({@code sk_lvie_}) and Anthropic keys cut short went through. A mistyped or truncated secret is still a
 * secret, and it is labelled as its provider's.
 */
class MistypedTokenTest {

    private static final SecretScanner SCANNER = SecretScanner.bundled();
    private static final String ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    private static final String URL_SAFE = ALNUM + "-_";

    private static String random(Random random, String alphabet, int length) {
        StringBuilder b = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    /** A GitHub token body as GitHub makes it: 30 random base62 characters and their CRC32 in six. */
    private static String githubBody(Random random) {
        String entropy = random(random, ALNUM, 30);
        return entropy + FormatCheck.checksum(entropy);
    }

    private static Finding onlyFinding(String text, String secret) {
        return OnlyFinding.in(SCANNER, text, secret);
    }

    @Test
    void aGithubTokenTypedWithAHyphen_shouldBeFoundInEveryContext_andLabelledAsAGithubToken() {
        Random random = new Random(11);
        List<String> contexts = List.of(
                "token: %s",
                "my github token is %s thanks",
                "GITHUB_TOKEN=%s",
                "use %s for the deploy",
                "{\"auth\": \"%s\"}",
                "git clone https://%s@github.com/acme/core.git",
                "我的 GitHub 令牌是 %s，别外传",
                "%s");
        for (String prefix : List.of("ghp-", "gho-", "ghu-", "ghs-", "ghr-")) {
            for (int i = 0; i < 40; i++) {
                String token = prefix + githubBody(random);
                String text = contexts.get(i % contexts.size()).formatted(token);
                Finding f = onlyFinding(text, token);
                assertThat(f.ruleId()).as(text).isEqualTo("github-token-hyphen-typo");
                assertThat(f.check()).isEqualTo("crc32");
                assertThat(f.checkPassed()).as(text).isTrue();
            }
        }
    }

    @Test
    void aHyphenTypoWithAWrongChecksum_shouldStillBeFound_withItsCheckFailed() {
        String token = "ghp-" + random(new Random(12), ALNUM, 30) + "AAAAAA";
        Finding f = onlyFinding("export GH=" + token, token);
        assertThat(f.ruleId()).isEqualTo("github-token-hyphen-typo");
        assertThat(f.checkPassed()).isFalse();
    }

    @Test
    void theCrc32Check_shouldReadAHyphenAsTheSeparator() {
        String body = githubBody(new Random(13));
        assertThat(FormatCheck.crc32Base62("ghp-" + body)).isTrue();
        assertThat(FormatCheck.crc32Base62("ghp_" + body)).isTrue();
        assertThat(FormatCheck.crc32Base62("ghp-" + "S" + body.substring(1))).isFalse();
    }

    @Test
    void slugsAndIdsAfterAGithubLikePrefix_shouldNotBeTokens() {
        for (String text : List.of(
                "runner ghs-7d9f8b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a",
                "pool ghr-runner-pool-eu-west-1-large-instances-2026",
                "GHS-7D9F8B6C5D4E3F2A1B0C9D8E7F6A5B4C3D2E1F0A",
                "token: ghp-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "the ghp-release notes",
                "ghp-wIl9DV4WTFuq1vq3oz")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void aStripeKeyWithAMistypedMode_shouldBeFound_andLabelledAsAStripeKey() {
        Random random = new Random(21);
        List<String> prefixes = List.of(
                "sk_lvie_",
                "sk_tset_",
                "rk_lvie_",
                "sk_ilve_",
                "sk_liev_",
                "sk_tets_",
                "sk_lve_",
                "sk_tst_",
                "sk_livr_",
                "sk_tesst_",
                "sk_LIVE_",
                "sk_Test_",
                "rk_tset_");
        for (String prefix : prefixes) {
            for (int length : List.of(24, 99)) {
                String key = prefix + random(random, ALNUM, length);
                Finding f = onlyFinding("STRIPE_SECRET_KEY=" + key, key);
                assertThat(f.ruleId()).as(key).isEqualTo("stripe-key-mistyped-mode");
                assertThat(f.description()).startsWith("Stripe");
                f = onlyFinding("my stripe key is " + key + ", keep it safe", key);
                assertThat(f.ruleId()).as(key).isEqualTo("stripe-key-mistyped-mode");
            }
        }
    }

    @Test
    void aStripeKeyWithItsRightMode_shouldKeepItsOwnRule() {
        Random random = new Random(22);
        String live = "sk_live_" + random(random, ALNUM, 24);
        String test = "sk_test_" + random(random, ALNUM, 24);
        String restricted = "rk_live_" + random(random, ALNUM, 24);
        assertThat(onlyFinding("k=" + live, live).ruleId()).isEqualTo("stripe-secret-key");
        assertThat(onlyFinding("k=" + test, test).ruleId()).isEqualTo("stripe-test-secret-key");
        assertThat(onlyFinding("k=" + restricted, restricted).ruleId()).isEqualTo("stripe-restricted-key");
    }

    @Test
    void wordsEndingInSkOrRkAndOtherModes_shouldNotBeStripeKeys() {
        for (String text : List.of(
                "task_tset_40ZpdR8QL2zdZA9EzNvwnC8h",
                "disk_lvie_40ZpdR8QL2zdZA9EzNvwnC8h",
                "sk_prod_40ZpdR8QL2zdZA9EzNvwnC8h",
                "sk_lvie_xxxxxxxxxxxxxxxxxxxxxxxx",
                "sk_lvie_40ZpdR8QL2zd",
                "mark_lvie_40ZpdR8QL2zdZA9EzNvwnC8h")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void aTruncatedAnthropicKey_shouldBeFound_andLabelledAsAnAnthropicKey() {
        Random random = new Random(31);
        for (int length : List.of(20, 21, 33, 48, 64, 80, 94)) {
            for (int i = 0; i < 20; i++) {
                String key = "sk-ant-api03-" + random(random, ALNUM, 1) + random(random, URL_SAFE, length - 2)
                        + random(random, ALNUM, 1);
                for (String text : List.of(
                        "ANTHROPIC_API_KEY=" + key, "my claude key is " + key + ", the rest got cut off", key)) {
                    Finding f = onlyFinding(text, key);
                    assertThat(f.ruleId()).as(text).isEqualTo("anthropic-api-key-truncated");
                    assertThat(f.description()).startsWith("Anthropic");
                }
            }
        }
    }

    @Test
    void aFullLengthAnthropicKey_shouldKeepItsOwnRule_andTooShortARestShouldNotBeAKey() {
        Random random = new Random(32);
        String full = "sk-ant-api03-" + random(random, ALNUM, 1) + random(random, URL_SAFE, 92) + "AA";
        assertThat(onlyFinding("ANTHROPIC_API_KEY=" + full, full).ruleId()).isEqualTo("anthropic-api-key");
        for (String text : List.of(
                "see sk-ant-api03-AbCdEfGhIjKlMnOpQrS here",
                "ANTHROPIC_API_KEY=sk-ant-api03-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "ANTHROPIC_API_KEY=sk-ant-api03-...",
                "keys look like sk-ant-api03-<your key>")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }
}
