package dev.cairn.model.id;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.NamespaceViolation;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.StringLength;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IdTest {

    @ParameterizedTest
    @ValueSource(
            strings = {
                "a",
                "0",
                "acme",
                "team-1",
                "user_42",
                "01m8mqdmw9zd8c1gn5z041yd81",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            })
    void of_shouldAccept_idsInTheGrammar(String raw) {
        assertThat(Id.of("team", raw).value()).isEqualTo(raw);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "../x",
                "a/b",
                "a\\b",
                "A",
                "acmE",
                "a\u0000b",
                "-a",
                "_a",
                "a.b",
                "a b",
                "a:b",
                "ａｃｍｅ",
                "\u0430cme",
                "acme\n",
                "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
            })
    void of_shouldReject_notClean_idsOutsideTheGrammar(String raw) {
        assertThatThrownBy(() -> Id.of("team", raw))
                .isInstanceOf(NamespaceViolation.class)
                .satisfies(
                        e -> assertThat(((NamespaceViolation) e).errors().get(0).field())
                                .isEqualTo("team"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a/b", "a\u0000b", "A", "ａ", "a.b"})
    void problemWith_shouldNameTheOffendingCharacter(String raw) {
        assertThat(Id.problemWith(raw)).isNotNull().doesNotContain("null");
    }

    @Property
    void everyStringOfTheGrammar_isAccepted(@ForAll("grammar") String raw) {
        assertThat(Id.isValid(raw)).isTrue();
        assertThat(new Id(raw).value()).isEqualTo(raw);
    }

    @Property
    void anyStringWithACharacterOutsideTheAlphabet_isRejected(
            @ForAll("grammar") String prefix,
            @ForAll("foreign") char bad,
            @ForAll @StringLength(max = 5) String suffix) {
        String raw = prefix + bad + suffix;
        assertThat(Id.isValid(raw)).isFalse();
    }

    @Property
    void anyStringLongerThan64_isRejected(@ForAll("grammar") String raw) {
        assertThat(Id.isValid(raw + "x".repeat(65 - raw.length()))).isFalse();
    }

    @Provide
    Arbitrary<String> grammar() {
        Arbitrary<Character> first = Arbitraries.chars().range('a', 'z').range('0', '9');
        Arbitrary<String> rest = Arbitraries.strings()
                .withCharRange('a', 'z')
                .withCharRange('0', '9')
                .withChars('_', '-')
                .ofMaxLength(63);
        return net.jqwik.api.Combinators.combine(first, rest).as((f, r) -> f + r);
    }

    @Provide
    Arbitrary<Character> foreign() {
        return Arbitraries.chars()
                .filter(c -> !((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'));
    }
}
