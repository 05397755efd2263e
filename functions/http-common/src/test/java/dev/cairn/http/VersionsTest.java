package dev.cairn.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.PreconditionRequired;
import org.junit.jupiter.api.Test;

class VersionsTest {

    @Test
    void ifMatch_shouldAcceptQuotedWeakAndBareVersions() {
        assertThat(Versions.requireIfMatch("\"3\"")).isEqualTo(3);
        assertThat(Versions.requireIfMatch("W/\"4\"")).isEqualTo(4);
        assertThat(Versions.requireIfMatch(" 5 ")).isEqualTo(5);
        assertThat(Versions.optionalIfMatch(null)).isNull();
        assertThat(Versions.etag(7)).isEqualTo("\"7\"");
    }

    @Test
    void ifMatch_shouldRejectMissingOrMalformedVersions() {
        assertThatThrownBy(() -> Versions.requireIfMatch(null)).isInstanceOf(PreconditionRequired.class);
        assertThatThrownBy(() -> Versions.requireIfMatch("*")).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> Versions.requireIfMatch("\"0\"")).isInstanceOf(InvalidInput.class);
        assertThatThrownBy(() -> Versions.requireIfMatch("\"abc\"")).isInstanceOf(InvalidInput.class);
    }
}
