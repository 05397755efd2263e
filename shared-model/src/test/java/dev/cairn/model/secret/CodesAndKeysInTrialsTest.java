package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rules 2026.12.07-1: the shapes a new user's trial saw stay in a session's history and summary, because the scanner
 * read none of them: a one-time code written before its name or after "it's", a tool result's {@code psk} and
 * {@code admin_pass} keys.
 */
class CodesAndKeysInTrialsTest {

    private static void assertRedacted(String text, String secret) {
        List<Finding> found = SecretScanner.bundled().scan(text);
        assertThat(SecretScanner.redact(text, found)).as(text).doesNotContain(secret);
    }

    @Test
    void aOneTimeCodeBeforeItsName_shouldBeRedacted() {
        assertRedacted("Use 284617 as the verification code", "284617");
        assertRedacted("482913 is your Google verification code. Don't share it.", "482913");
        assertRedacted("Enter 5521 as your login code", "5521");
    }

    @Test
    void aOneTimeCodeAfterItsNameAndACommaClause_shouldBeRedacted() {
        assertRedacted("my sign-in code, it's 739215", "739215");
        assertRedacted("The log-in code is 118264", "118264");
    }

    @Test
    void numbersNearACodeNameThatAreNotCodes_shouldBeLeft() {
        assertNoneFlagged(List.of(
                "2024 was the year the verification code flow changed",
                "4000 is the port of the verification code service",
                "the meeting is at 1430 as the login code expires",
                "the sign-in code, it's sent by SMS"));
    }

    @Test
    void aPreSharedKeyOrAdminPasswordInToolJson_shouldBeRedacted() {
        assertRedacted("{\"ssid\": \"office\", \"psk\": \"correcthorse42\"}", "correcthorse42");
        assertRedacted("{\"user\": \"root\", \"admin_pass\": \"Sup3rS3cret!\"}", "Sup3rS3cret!");
        assertRedacted("network={\n  ssid=\"home\"\n  psk=\"bluebird-2291\"\n}", "bluebird-2291");
    }

    @Test
    void aPskKeyHoldingAReferenceOrAType_shouldBeLeft() {
        assertNoneFlagged(List.of(
                "{\"psk\": \"${WIFI_PSK}\"}",
                "{ psk: <Buffer>, identity: <string> }",
                "\"Cryptography_HAS_PSK\": cryptography_has_psk,",
                "our $s_chgrpskelB = '.chgrpskelB';"));
    }
}
