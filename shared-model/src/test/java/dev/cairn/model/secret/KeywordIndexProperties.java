package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

/** The keyword automaton finds exactly the occurrences a naive case-insensitive search finds. */
class KeywordIndexProperties {

    @Property(tries = 300)
    void findsEveryOccurrence_andNothingElse(
            @ForAll @Size(min = 1, max = 8) List<@StringLength(min = 1, max = 4) @Chars({'a', 'b', 'A', '_', '密', 'ñ'}) String> words,
            @ForAll @StringLength(max = 60) @Chars({'a', 'b', 'B', '_', '密', 'ñ', 'Ñ', ' '}) String text) {
        List<String> keywords = new ArrayList<>(new java.util.LinkedHashSet<>(words.stream()
                .map(w -> w.toLowerCase(Locale.ROOT)).toList()));
        Set<String> expected = new HashSet<>();
        String lower = text.toLowerCase(Locale.ROOT);
        for (int k = 0; k < keywords.size(); k++) {
            String w = keywords.get(k);
            for (int i = lower.indexOf(w); i >= 0; i = lower.indexOf(w, i + 1)) {
                expected.add(k + "@" + i);
            }
        }
        Set<String> actual = new HashSet<>();
        new KeywordIndex(keywords).scan(text, (k, start) -> actual.add(k + "@" + start));
        assertThat(actual).isEqualTo(expected);
    }
}
