package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The canonical form Cairn hashes, checked against RFC 8785's published examples. */
class CanonicalJsonTest {

    /** RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical spelling. */
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "0000000000000000, 0",
        "8000000000000000, 0",
        "0000000000000001, 5e-324",
        "8000000000000001, -5e-324",
        "7fefffffffffffff, 1.7976931348623157e+308",
        "4340000000000000, 9007199254740992",
        "4430000000000000, 295147905179352830000",
        "44b52d02c7e14af5, 9.999999999999997e+22",
        "44b52d02c7e14af6, 1e+23",
        "444b1ae4d6e2ef4f, 999999999999999900000",
        "444b1ae4d6e2ef50, 1e+21",
        "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
        "3eb0c6f7a0b5ed8d, 0.000001",
        "41b3de4355555554, 333333333.33333325",
        "becbf647612f3696, -0.0000033333333333333333",
        "43143ff3c1cb0959, 1424953923781206.2"
    })
    void numbers_shouldBePrintedAsEcmaScriptDoes(String bits, String expected) {
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
        assertThat(CanonicalJson.canonicalize("[" + d + "]")).isEqualTo("[" + expected + "]");
    }

    @Test
    void members_shouldBeSortedByUtf16CodeUnits_andStringsMinimallyEscaped() {
        String input = "{\"\\u20ac\": \"Euro Sign\", \"\\r\": \"Carriage Return\", \"\\ufb33\": \"Hebrew Letter Dalet "
                + "With Dagesh\", \"1\": \"One\", \"\\ud83d\\ude00\": \"Emoji: Grinning Face\", \"\\u0080\": \"Control\","
                + " \"\\u00f6\": \"Latin Small Letter O With Diaeresis\"}";
        assertThat(CanonicalJson.canonicalize(input))
                .isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\","
                        + "\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\","
                        + "\"\u20ac\":\"Euro Sign\",\"\ud83d\ude00\":\"Emoji: Grinning Face\","
                        + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
        assertThat(CanonicalJson.canonicalize("[ \"\\u0001\\t\\\"\\\\\\/\" , true , null , [ ] ]"))
                .isEqualTo("[\"\\u0001\\t\\\"\\\\/\",true,null,[]]");
    }

    @Test
    void textThatIsNotJson_shouldBeRefused() {
        assertThatThrownBy(() -> CanonicalJson.canonicalize("{\"a\": ")).isInstanceOf(CanonicalJson.NotJson.class);
        assertThatThrownBy(() -> CanonicalJson.canonicalize(null)).isInstanceOf(CanonicalJson.NotJson.class);
        assertThat(CanonicalJson.isObject(" {\"a\":1}")).isTrue();
        assertThat(CanonicalJson.isObject("[1]")).isFalse();
        assertThat(CanonicalJson.isArray("[1]")).isTrue();
    }
}
