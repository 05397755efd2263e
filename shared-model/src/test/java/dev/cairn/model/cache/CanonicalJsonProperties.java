package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** One JSON value, one canonical text: whatever the member order, the spelling of numbers or of characters. */
class CanonicalJsonProperties {

    /** Writes a JSON text; {@code escapeAll} spells every non-ASCII character as a \\u escape. */
    private static String write(Object v, boolean escapeAll, Random order) {
        if (v instanceof Map<?, ?> m) {
            List<Object> keys = new ArrayList<>(m.keySet());
            Collections.shuffle(keys, order);
            StringBuilder b = new StringBuilder("{");
            for (Object k : keys) {
                b.append(b.length() > 1 ? ", " : "")
                        .append(write(k, escapeAll, order))
                        .append(" : ")
                        .append(write(m.get(k), escapeAll, order));
            }
            return b.append('}').toString();
        }
        if (v instanceof String s) {
            StringBuilder b = new StringBuilder("\"");
            for (char c : s.toCharArray()) {
                if (c == '"' || c == '\\') {
                    b.append('\\').append(c);
                } else if (c < 0x20 || (escapeAll && c > 0x7e)) {
                    b.append(String.format("\\u%04x", (int) c));
                } else {
                    b.append(c);
                }
            }
            return b.append('"').toString();
        }
        return String.valueOf(v);
    }

    @Provide
    Arbitrary<Map<String, Object>> objects() {
        Arbitrary<Object> leaf = Arbitraries.oneOf(
                Arbitraries.strings()
                        .withCharRange('\u0001', '\ud7ff')
                        .ofMaxLength(12)
                        .map(s -> (Object) s),
                Arbitraries.integers().map(i -> (Object) i),
                Arbitraries.of(true, false).map(b -> (Object) b));
        return Arbitraries.maps(
                        Arbitraries.strings()
                                .withCharRange('\u0001', '\ud7ff')
                                .ofMinLength(1)
                                .ofMaxLength(6),
                        leaf)
                .ofMaxSize(8);
    }

    @Property(tries = 500)
    void memberOrderAndEscapes_shouldNotChangeTheText(
            @ForAll("objects") Map<String, Object> object, @ForAll long seed) {
        String plain = write(object, false, new Random(seed));
        String escaped = write(object, true, new Random(seed + 1));
        assertThat(CanonicalJson.canonicalize(escaped)).isEqualTo(CanonicalJson.canonicalize(plain));
    }

    @Property(tries = 2000)
    void aNumbersSpelling_shouldNotChangeTheText(@ForAll double d) {
        String canonical = CanonicalJson.canonicalize("[" + d + "]");
        assertThat(CanonicalJson.canonicalize("[" + new BigDecimal(d).toString().replace("E", "e") + "]"))
                .isEqualTo(canonical);
        assertThat(CanonicalJson.canonicalize(
                        "[" + Double.toString(d).replace("E", "E+").replace("E+-", "E-") + "]"))
                .isEqualTo(canonical);
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            assertThat(CanonicalJson.canonicalize("[" + (long) d + "]")).isEqualTo(canonical);
        }
        String number = canonical.substring(1, canonical.length() - 1);
        assertThat(Double.parseDouble(number)).isEqualTo(d == 0 ? 0.0 : d);
    }
}
