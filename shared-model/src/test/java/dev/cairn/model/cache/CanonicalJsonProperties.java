package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** One JSON value, one canonical text: whatever the member order or the spelling of its numbers. */
class CanonicalJsonProperties {

    @Provide
    Arbitrary<Map<String, Object>> objects() {
        Arbitrary<Object> leaf = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(12).map(s -> (Object) s),
                Arbitraries.integers().map(i -> (Object) i), Arbitraries.doubles().map(d -> (Object) d),
                Arbitraries.of(true, false).map(b -> (Object) b));
        return Arbitraries.maps(Arbitraries.strings().alpha().ofMinLength(1).ofMaxLength(6), leaf).ofMaxSize(8);
    }

    @Property(tries = 500)
    void memberOrder_shouldNotChangeTheText(@ForAll("objects") Map<String, Object> object, @ForAll long seed) {
        List<String> keys = new ArrayList<>(object.keySet());
        Collections.shuffle(keys, new java.util.Random(seed));
        Map<String, Object> reordered = new LinkedHashMap<>();
        for (String k : keys) {
            reordered.put(k, object.get(k));
        }
        assertThat(CanonicalJson.canonicalize(reordered)).isEqualTo(CanonicalJson.canonicalize(object));
    }

    @Property(tries = 2000)
    void aNumbersSpelling_shouldNotChangeTheText(@ForAll double d) {
        String canonical = CanonicalJson.canonicalize(d);
        // the same value written as a BigDecimal, with an exponent, or as a long when integral
        assertThat(CanonicalJson.canonicalize(new BigDecimal(Double.toString(d)))).isEqualTo(canonical);
        assertThat(CanonicalJson.canonicalize(Double.parseDouble(Double.toString(d).replace("E", "e")))).isEqualTo(
                canonical);
        if (d == Math.rint(d) && Math.abs(d) < 1e15) {
            assertThat(CanonicalJson.canonicalize((long) d)).isEqualTo(canonical);
        }
    }

    @Property(tries = 2000)
    void theCanonicalNumber_shouldReadBackAsTheSameDouble(@ForAll double d) {
        assertThat(Double.parseDouble(CanonicalJson.number(d))).isEqualTo(d == 0 ? 0.0 : d);
    }
}
