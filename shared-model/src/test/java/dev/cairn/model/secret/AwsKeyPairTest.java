package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An AWS key pair pasted together (rules 2026.12.06-8, {@code aws-secret-beside-key-id}): the secret has no name of
 * its own, only its place after the access key id: on the same line, after a slash, or on the next line (rules
 * 2026.12.07-1). Both halves must be redacted, not just the id.
 */
class AwsKeyPairTest {

    private static final String ID = "AKIAQYLPMN5HHHFPZAM2";
    private static final String SECRET = "Jx8kQ2mV9pLr4TzW7bNc1YdF6hSg3KuE0aXo5iRt";

    @Test
    void aSecretWrittenJustAfterItsKeyId_shouldBeRedactedWithTheId() {
        for (String text : List.of(
                "aws key " + ID + " secret " + SECRET,
                ID + " with secret " + SECRET + ", region eu-west-1",
                ID + ":" + SECRET,
                ID + "/" + SECRET,
                "Access key ID: " + ID + "\nSecret access key: " + SECRET,
                ID + "\n" + SECRET)) {
            List<Finding> found = SecretScanner.bundled().scan(text);
            assertThat(found)
                    .as(text)
                    .extracting(Finding::ruleId)
                    .contains("aws-access-key-id", "aws-secret-beside-key-id");
            String redacted = SecretScanner.redact(text, found);
            assertThat(redacted).as(text).doesNotContain(ID).doesNotContain(SECRET);
        }
    }

    @Test
    void aBase64RunAfterABlankLine_shouldNotBeTakenForTheSecret() {
        assertThat(SecretScanner.bundled().scan(ID + "\n\n" + SECRET))
                .extracting(Finding::ruleId)
                .doesNotContain("aws-secret-beside-key-id");
    }

    @Test
    void aMaskOrNoSecretAfterTheId_shouldLeaveOnlyTheId() {
        assertNoneFlagged(List.of(
                "the secret is in Vault", "AKIAIOSFODNN7EXAMPLE with secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"));
        assertThat(SecretScanner.bundled().scan(ID + " with secret xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"))
                .extracting(Finding::ruleId)
                .containsExactly("aws-access-key-id");
    }
}
