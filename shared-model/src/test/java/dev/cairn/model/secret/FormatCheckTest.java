package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class FormatCheckTest {

    private static final SecretScanner SCANNER = SecretScanner.bundled();
    private static final String RANDOM = "R8kLm2Qw9ZxT4vBn6YpJ3sDf7HgK1c";

    @Test
    void aGithubTokenWithItsCrc32Tail_shouldPassItsCheck_andOneCharacterChanged_shouldNot() {
        String token = "ghp_" + RANDOM + FormatCheck.checksum(RANDOM);
        String altered = "ghp_" + "S" + RANDOM.substring(1) + FormatCheck.checksum(RANDOM);
        assertThat(FormatCheck.crc32Base62(token)).isTrue();
        assertThat(FormatCheck.crc32Base62(altered)).isFalse();
        assertThat(FormatCheck.crc32Base62("ghp_short")).isFalse();
    }

    @Test
    void aFinding_shouldSayWhichCheckRan_andWhetherItPassed_withoutDroppingTheFailedOne() {
        String valid = "ghp_" + RANDOM + FormatCheck.checksum(RANDOM);
        String invalid = "gho_" + RANDOM + "AAAAAA";
        List<Finding> found = SCANNER.scan("new token " + valid + " and the old one " + invalid);
        assertThat(found).extracting(Finding::ruleId).containsExactly("github-pat", "github-oauth");
        assertThat(found.get(0).check()).isEqualTo("crc32");
        assertThat(found.get(0).checkPassed()).isTrue();
        assertThat(found.get(1).check()).isEqualTo("crc32");
        assertThat(found.get(1).checkPassed()).isFalse();
    }

    @Test
    void aFindingOfAFormatWithoutChecksum_shouldReportTheMatchAsItsCheck() {
        List<Finding> found = SCANNER.scan("AWS_ACCESS_KEY_ID=AKIAQ3VZ7XKJ2MHW5TNB");
        assertThat(found).singleElement().satisfies(f -> {
            assertThat(f.check()).isEqualTo("format");
            assertThat(f.checkPassed()).isTrue();
        });
    }

    @Test
    void theCheck_shouldReadTheTokenAsThePatternsDo_withoutInvisibleCharacters() {
        String valid = "ghp_" + RANDOM + FormatCheck.checksum(RANDOM);
        String hidden = valid.substring(0, 12) + "\u200B" + valid.substring(12);
        assertThat(SCANNER.scan("token " + hidden))
                .singleElement()
                .satisfies(f -> assertThat(f.checkPassed()).isTrue());
    }

    @Test
    void aGithubOrNpmTokenOneCharacterTooLongOrShort_shouldStillBeFound_withItsCheckFailed() {
        // a new user's trial pasted a ghp_ token with one character too many and it was stored as written:
        // a mistyped secret is still a secret, so lengths near the documented 36 are found and the check says no
        String valid = "ghp_" + RANDOM + FormatCheck.checksum(RANDOM);
        for (String typo : List.of(valid + "Q", valid.substring(0, valid.length() - 1), "npm_" + RANDOM + "Zk")) {
            assertThat(SCANNER.scan("my token is " + typo + " thanks"))
                    .as(typo)
                    .singleElement()
                    .satisfies(f -> {
                        assertThat(f.check()).isEqualTo("crc32");
                        assertThat(f.checkPassed()).isFalse();
                    });
        }
        // far from the format (a word that happens to start alike) is not a token
        assertThat(SCANNER.scan("the ghp_release_notes page")).isEmpty();
    }
}
