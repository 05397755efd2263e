package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * Asking to remember a credential does not make it safe to keep. A trial's "Remember that the guest wifi key is
 * blue-otter-73" was written at once as a team memory, while the same sentence without "remember" was withheld as a
 * secret at the session's end. A bank whose every example is a secret makes the vote all "secret", so what is kept or
 * withheld here is the explicit path's doing.
 */
class RememberedSecretTest {

    private final OneStatement extractor = new OneStatement(
            new ExampleBank.Example("skip:secret", "the guest wifi key is kumquat-55-river", false),
            new ExampleBank.Example("skip:secret", "the gate opens with 4417 then the star key", false),
            new ExampleBank.Example("skip:secret", "my bank answer for the first car question is Corolla", false));

    @Test
    void anExplicitRequestToRememberACredential_isWithheldAsASecret() {
        for (String said : java.util.List.of(
                "Remember that the guest wifi key is blue-otter-73",
                "please remember the gate opens with 2468 then the star key")) {
            FactExtractor.Extraction x = extractor.extract(said);

            assertThat(x.facts()).as(said).isEmpty();
            assertThat(x.skipped())
                    .as(said)
                    .singleElement()
                    .satisfies(s -> assertThat(s.reason()).isEqualTo("secret"));
        }
    }

    @Test
    void anExplicitRequestWithNoValueInIt_isStillKept_whateverTheVote() {
        // "the password is stored in Vault" talks about a secret without giving one: asked for, it is kept
        assertThat(extractor
                        .extract("Remember that the wifi password is stored in the office vault")
                        .facts())
                .hasSize(1);
    }
}
