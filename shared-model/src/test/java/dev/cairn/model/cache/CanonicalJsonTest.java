package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    /** RFC 8785 Appendix B: IEEE-754 bit patterns and their canonical spelling. */
    @ParameterizedTest(name = "{0} → {1}")
    @CsvSource({
        "0000000000000000, 0",
        "8000000000000000, 0",
        "0000000000000001, 5e-324",
        "8000000000000001, -5e-324",
        "7fefffffffffffff, 1.7976931348623157e+308",
        "ffefffffffffffff, -1.7976931348623157e+308",
        "4340000000000000, 9007199254740992",
        "c340000000000000, -9007199254740992",
        "4430000000000000, 295147905179352830000",
        "44b52d02c7e14af5, 9.999999999999997e+22",
        "44b52d02c7e14af6, 1e+23",
        "44b52d02c7e14af7, 1.0000000000000001e+23",
        "444b1ae4d6e2ef4e, 999999999999999700000",
        "444b1ae4d6e2ef4f, 999999999999999900000",
        "444b1ae4d6e2ef50, 1e+21",
        "3eb0c6f7a0b5ed8c, 9.999999999999997e-7",
        "3eb0c6f7a0b5ed8d, 0.000001",
        "41b3de4355555553, 333333333.3333332",
        "41b3de4355555554, 333333333.33333325",
        "41b3de4355555555, 333333333.3333333",
        "41b3de4355555556, 333333333.3333334",
        "41b3de4355555557, 333333333.33333343",
        "becbf647612f3696, -0.0000033333333333333333",
        "43143ff3c1cb0959, 1424953923781206.2"})
    void numbers_shouldBePrintedAsEcmaScriptDoes(String bits, String expected) {
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(bits, 16));
        assertThat(CanonicalJson.number(d)).isEqualTo(expected);
    }

    @Test
    void members_shouldBeSortedByUtf16CodeUnits_andStringsMinimallyEscaped() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("\u20ac", "Euro Sign");
        m.put("\r", "Carriage Return");
        m.put("\ufb33", "Hebrew Letter Dalet With Dagesh");
        m.put("1", "One");
        m.put("\ud83d\ude00", "Emoji: Grinning Face");
        m.put("\u0080", "Control");
        m.put("\u00f6", "Latin Small Letter O With Diaeresis");
        assertThat(CanonicalJson.canonicalize(m)).isEqualTo("{\"\\r\":\"Carriage Return\",\"1\":\"One\","
                + "\"\u0080\":\"Control\",\"\u00f6\":\"Latin Small Letter O With Diaeresis\","
                + "\"\u20ac\":\"Euro Sign\",\"\ud83d\ude00\":\"Emoji: Grinning Face\","
                + "\"\ufb33\":\"Hebrew Letter Dalet With Dagesh\"}");
        assertThat(CanonicalJson.canonicalize(Arrays.asList("\u0001\t\"\\/", true, null, List.of())))
                .isEqualTo("[\"\\u0001\\t\\\"\\\\/\",true,null,[]]");
    }

    @Test
    void whatJsonCannotHold_shouldBeRefused() {
        assertThatThrownBy(() -> CanonicalJson.canonicalize(Double.NaN)).isInstanceOf(CanonicalJson.NotJson.class);
        assertThatThrownBy(() -> CanonicalJson.canonicalize(List.of(Double.POSITIVE_INFINITY)))
                .isInstanceOf(CanonicalJson.NotJson.class);
        assertThatThrownBy(() -> CanonicalJson.canonicalize("\ud800x")).isInstanceOf(CanonicalJson.NotJson.class);
        assertThatThrownBy(() -> CanonicalJson.canonicalize(Map.of(1, "x"))).isInstanceOf(CanonicalJson.NotJson.class);
    }
}
