package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A finding of a new user's trial of the gate: a key, token or secret written straight after its name, with no "is"
 * or colon between ("use secret Xk9m… for staging"), went to memory as written.
 */
class CredentialWithoutVerbTest {

    private static final String BARE = "prose-named-credential-bare-en";

    @Test
    void aRandomValueRightAfterAKeyTokenOrSecret_shouldBeFound_andOnlyTheValueRedacted() {
        assertFoundAndRedacted("use secret Xk9mQ2vLp8wTz4Rb for staging", "Xk9mQ2vLp8wTz4Rb", BARE);
        assertFoundAndRedacted("api key Xk9mQ2vLp8wTz4Rb", "Xk9mQ2vLp8wTz4Rb", BARE);
        assertFoundAndRedacted("token Xk9mQ2vLp8wTz4Rb", "Xk9mQ2vLp8wTz4Rb", BARE);
        assertFoundAndRedacted("the client secret Xk9mQ2vLp8wTz4Rb goes in the header", "Xk9mQ2vLp8wTz4Rb", BARE);
        assertFoundAndRedacted("access token Xk9mQ2vLp8wTz4Rb1234, valid a week", "Xk9mQ2vLp8wTz4Rb1234", BARE);
        assertFoundAndRedacted("the deploy key 'Hq4Zt9LmW2xPc7RvB8nK' is in the runbook", "Hq4Zt9LmW2xPc7RvB8nK", BARE);
    }

    @Test
    void wordsIdentifiersAndNonSecretKeysAfterTheName_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "the secret sauce is garlic",
                "secret santa 2024 is on Friday",
                "my api key abcdefghijklmnop is in the vault", // one lower-case word
                "use the token ResetPasswordToken2024 from the enum", // an identifier: its digits end it
                "the key SecretKeySpecFactory builds it",
                "the primary key CustomerIdAndRegion2x9 is unique",
                "the session token 550e8400-e29b-41d4-a716-446655440000 in the log", // a UUID
                "the cache key e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", // a digest
                "the api key xxxxxxxxxxxxxxxxxxxxxxxx",
                "the public key MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEm8Lq2Xv9",
                "pass the token via the Authorization header",
                "key TENANT_ID_PRIMARY_REGION_01 is an env name"));
    }
}
