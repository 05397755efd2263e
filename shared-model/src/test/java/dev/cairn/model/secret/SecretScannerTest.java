package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecretScannerTest {

    private static final SecretScanner SCANNER = SecretScanner.bundled();
    private static final String GH = "ghp_" + "R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1cAe5UoI";

    @Test
    void redaction_shouldReplaceExactlyTheSecret_inMultiByteText() {
        String text = "记住：我的 GitHub 令牌是 " + GH + " 😀 谢谢";
        List<Finding> found = SCANNER.scan(text);
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.ruleId()).isEqualTo("github-pat");
            assertThat(text.substring(f.start(), f.end())).isEqualTo(GH);
        });
        assertThat(SecretScanner.redact(text, found)).isEqualTo("记住：我的 GitHub 令牌是 [REDACTED:github-pat] 😀 谢谢");
    }

    @Test
    void fullWidthForms_shouldBeFoldedByNfkc_andReportedAtTheirOriginalOffsets() {
        String fullWidth = "ｇｈｐ＿" + "Ｒ８ｋＬｍ２Ｑｗ９ＺｘＴ４ｖＢｎ６ＹｐＪ３ｓＤｆ７ＨｇＫ１ｃＡｅ５ＵｏＩ";
        String text = "token " + fullWidth + " end";
        List<Finding> found = SCANNER.scan(text);
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.ruleId()).isEqualTo("github-pat");
            assertThat(text.substring(f.start(), f.end())).isEqualTo(fullWidth);
        });
    }

    @Test
    void aBase64EncodedSecret_shouldBeFound_andReportTheEncodedToken() {
        String encoded = Base64.getEncoder().encodeToString(("GITHUB_TOKEN=" + GH).getBytes(StandardCharsets.UTF_8));
        String text = "config blob: " + encoded + " (from the CI)";
        List<Finding> found = SCANNER.scan(text);
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.ruleId()).isEqualTo("github-pat");
            assertThat(text.substring(f.start(), f.end())).isEqualTo(encoded);
        });
    }

    @Test
    void aPercentEncodedSecret_shouldBeFound() {
        String text = "redirect=https%3A%2F%2Fdeploy%3As3cr3tPassw0rd%40git.acme.dev%2Fcore.git";
        assertThat(SCANNER.scan(text)).isNotEmpty();
    }

    @Test
    void placeholdersAndDocumentedExamples_shouldNotBeSecrets() {
        for (String text : List.of(
                "aws_access_key_id = AKIAIOSFODNN7EXAMPLE",
                "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                "GITHUB_TOKEN=ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
                "OPENAI_API_KEY=<your-openai-key>",
                "password: ${DB_PASSWORD}",
                "api_key = your-api-key-here",
                "STRIPE_KEY=sk_live_************************",
                "token: {{ secrets.TOKEN }}")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void hashesUuidsDigestsAndPublicKeys_shouldNotBeSecrets() {
        for (String text : List.of(
                "commit 3f786850e387550fdab836ed7e6dc881de23001b",
                "sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
                "request_id = 123e4567-e89b-12d3-a456-426614174000",
                "\"integrity\": \"sha512-9Wg1Q0yFmpYlB7XCt0/tuvbLZSuWbQjDA0t8VwuNJ0Ec3yvC09NEk7pZsQ4ZeK4tWmiK2lFaGaUl8D1EokjP3w==\"",
                "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGcQ1X8mLb0j1xZr4oYb5Ck7n2fWq9sT8uV3hJ6kP0aD alice@laptop",
                "token_count = 4096 and max_tokens: 1024",
                "the password is incorrect, try again",
                "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n-----END PUBLIC KEY-----")) {
            assertThat(SCANNER.scan(text)).as(text).isEmpty();
        }
    }

    @Test
    void aVendorRule_shouldWinOverAGenericOne_onTheSameText() {
        List<Finding> found = SCANNER.scan("GITHUB_TOKEN=" + GH);
        assertThat(found).singleElement().extracting(Finding::ruleId).isEqualTo("github-pat");
    }

    @Test
    void passwordsInProse_shouldBeFound_inEnglishChineseGermanAndJapanese() {
        assertThat(SCANNER.scan("fyi the wifi password is Tr0ub4dor&3"))
                .extracting(Finding::ruleId)
                .containsExactly("prose-password-en");
        assertThat(SCANNER.scan("数据库密码是Xk93mfa8q，别外传"))
                .extracting(Finding::ruleId)
                .containsExactly("prose-password-zh");
        assertThat(SCANNER.scan("Das Passwort lautet Sommer2026!"))
                .extracting(Finding::ruleId)
                .containsExactly("prose-password-de");
        assertThat(SCANNER.scan("パスワードはhunter22です")).extracting(Finding::ruleId).containsExactly("prose-password-ja");
    }

    @Test
    void findings_shouldNeverOverlap_andComeInOrder() {
        String text =
                "postgresql://app:Zq8mN3vX7pL2@db/crm and GITHUB_TOKEN=" + GH + " and sshpass -p Hx7Lm2Qp9 ssh a@b";
        List<Finding> found = SCANNER.scan(text);
        assertThat(found).hasSize(3);
        for (int i = 1; i < found.size(); i++) {
            assertThat(found.get(i).start())
                    .isGreaterThanOrEqualTo(found.get(i - 1).end());
        }
    }

    @Test
    void entropy_shouldBeShannonBitsPerCharacter() {
        assertThat(SecretScanner.entropy("aaaa")).isZero();
        assertThat(SecretScanner.entropy("abcd")).isEqualTo(2.0);
    }

    /**
     * Issue 17.5: a zero-width space, joiner or soft hyphen inside a token hides it from patterns that read the text
     * as sent. The scanner reads a view without format characters; the finding and the redaction cover the token in
     * the original text, invisible characters included.
     */
    @Test
    void aTokenSplitByInvisibleFormatCharacters_shouldBeFound_andRedactedAtItsOriginalOffsets() {
        String aws = "AKIA" + "Q3VZ7XKJ2MHW5TNB";
        for (String invisible : List.of("\u200B", "\u200D", "\u00AD", "\u2060", "\uFEFF", "\u200C", "\u200B\u200D")) {
            String hiddenGh = GH.substring(0, 9) + invisible + GH.substring(9, 20) + invisible + GH.substring(20);
            String hiddenAws = aws.substring(0, 3) + invisible + aws.substring(3);
            String text = "deploy key " + hiddenGh + " and " + hiddenAws + " done";
            List<Finding> found = SCANNER.scan(text);
            assertThat(found)
                    .as(escape(text))
                    .extracting(Finding::ruleId)
                    .containsExactly("github-pat", "aws-access-key-id");
            assertThat(text.substring(found.get(0).start(), found.get(0).end())).isEqualTo(hiddenGh);
            assertThat(text.substring(found.get(1).start(), found.get(1).end())).isEqualTo(hiddenAws);
            assertThat(SecretScanner.redact(text, found))
                    .isEqualTo("deploy key [REDACTED:github-pat] and [REDACTED:aws-access-key-id] done");
        }
    }

    @Test
    void invisibleCharactersAroundASecret_shouldStayOutsideTheRedaction() {
        String text = "\u200Btoken\u200B " + GH + "\u200D end";
        List<Finding> found = SCANNER.scan(text);
        assertThat(found)
                .singleElement()
                .satisfies(f -> assertThat(text.substring(f.start(), f.end())).isEqualTo(GH));
    }

    private static String escape(String s) {
        StringBuilder b = new StringBuilder();
        s.codePoints().forEach(c -> b.append(c < 128 ? Character.toString(c) : String.format("\\u%04X", c)));
        return b.toString();
    }
}
