package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Credentials as a new user's trial stated them and the write gate stored as written (rules 2026.12.06-4): a password
 * set or changed to a short value, a user:password pair after creds or login, a hex API key named outright, and a
 * passphrase of several plain words. Each rule keeps the sentences about the same things unflagged.
 */
class StatedCredentialTest {

    @Test
    void aPasswordSetOrChangedToAValue_shouldBeFound() {
        assertFoundAndRedacted("I set the db password to hunter2", "hunter2", "prose-password-set-to");
        assertFoundAndRedacted(
                "the admin password was changed to tiger-lily-42 yesterday", "tiger-lily-42", "prose-password-set-to");
        assertFoundAndRedacted(
                "the password for the NAS has been reset to Winter2026!", "Winter2026!", "prose-password-set-to");
    }

    @Test
    void aUserAndPasswordPairAfterCredsOrLogin_shouldBeFound_onlyThePasswordRedacted() {
        assertFoundAndRedacted("creds: admin:Pa55word!", "Pa55word!", "prose-credential-pair");
        assertFoundAndRedacted("login is admin / admin123", "admin123", "prose-credential-pair");
        assertFoundAndRedacted(
                "Remember the admin login for the NAS: admin / Qwerty!2024", "Qwerty!2024", "prose-credential-pair");
    }

    @Test
    void aHexApiKeyNamedOutright_shouldBeFound() {
        assertFoundAndRedacted(
                "the openweather api key is 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
                "9f8e7d6c5b4a39281706f5e4d3c2b1a0",
                "prose-api-key-hex");
    }

    @Test
    void aPassphraseOfPlainWords_shouldBeFoundWhole() {
        assertFoundAndRedacted(
                "the passphrase for the gpg key is purple monkey dishwasher",
                "purple monkey dishwasher",
                "prose-passphrase-words");
    }

    @Test
    void sentencesAboutTheseCredentials_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "reset your password via the portal",
                "the password policy requires 12 characters and one symbol",
                "set the password to expire in 90 days",
                "reset your password to continue",
                "the password was reset to the default",
                "login: user/password",
                "credentials: admin:admin",
                "login: POST /api/v1/login",
                "the login is at 10:30",
                "the sha256 of the api key is 9f8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",
                "the api key hash is 9f8e7d6c5b4a39281706f5e4d3c2b1a0",
                "the passphrase is stored in the vault",
                "the passphrase is what protects the key",
                "the passphrase is needed every time you sign"));
    }
}
