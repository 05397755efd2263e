package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

/**
 * The keyword automaton finds exactly the occurrences a naive search finds in the NFKC-folded, lower-cased text —
 * in short texts (one stream) and in long ones (four streams over four quarters), each stream in the order of where they end —
 * and reports every character NFKC expands and every high surrogate as special.
 */
class KeywordIndexProperties {

    @Property(tries = 300)
    void findsEveryOccurrence_andNothingElse(
            @ForAll @Size(min = 1, max = 8)
                    List<@StringLength(min = 1, max = 4) @Chars({'a', 'b', 'A', '_', '密', 'ñ'}) String> words,
            @ForAll @StringLength(max = 60) @Chars({'a', 'b', 'B', '_', '密', 'ñ', 'Ñ', ' ', 'Ａ', 'ｂ'}) String text) {
        assertFindsExactly(words, text);
    }

    @Property(tries = 60)
    void findsEveryOccurrence_acrossTheStreamsOfLongTexts(
            @ForAll @Size(min = 1, max = 8) List<@StringLength(min = 1, max = 6) @Chars({'a', 'b', '_'}) String> words,
            @ForAll @StringLength(min = 4096, max = 12_000) @Chars({'a', 'b', 'B', '_', ' ', 'ｂ'}) String text) {
        assertFindsExactly(words, text);
    }

    @Property(tries = 100)
    void reportsCharactersNfkcExpands_andHighSurrogates_asSpecial(
            @ForAll @StringLength(max = 5000) @Chars({'a', 'p', 'w', 'ﬁ', '㎏', '\uD83D', '\uDE00', ' '}) String text) {
        Set<Integer> expected = new HashSet<>();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == 'ﬁ' || c == '㎏' || Character.isHighSurrogate(c)) {
                expected.add(i);
            }
        }
        Set<Integer> special = new HashSet<>();
        new KeywordIndex(List.of("pw")).scan(text, (k, at) -> {
            if (k == KeywordIndex.SPECIAL) {
                special.add(at);
            }
        });
        assertThat(special).isEqualTo(expected);
    }

    private static void assertFindsExactly(List<String> words, String text) {
        List<String> keywords = new ArrayList<>(new LinkedHashSet<>(
                words.stream().map(w -> w.toLowerCase(Locale.ROOT)).toList()));
        Set<String> expected = new HashSet<>();
        String folded = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        assertThat(folded).hasSameSizeAs(text); // the alphabets above fold one for one
        for (int k = 0; k < keywords.size(); k++) {
            String w = keywords.get(k);
            for (int i = folded.indexOf(w); i >= 0; i = folded.indexOf(w, i + 1)) {
                expected.add(k + "@" + i);
            }
        }
        List<String> actual = new ArrayList<>();
        List<List<Integer>> ends = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
        new KeywordIndex(keywords).scan(text, new KeywordIndex.Hits() {
            @Override
            public void at(int k, int start) {
                throw new AssertionError("the automaton names the stream of every occurrence");
            }

            @Override
            public void at(int k, int start, int stream) {
                actual.add(k + "@" + start);
                ends.get(stream).add(start + keywords.get(k).length());
            }
        });
        assertThat(actual).doesNotHaveDuplicates();
        List<Integer> streamByStream = ends.stream().flatMap(List::stream).toList();
        assertThat(streamByStream)
                .as("each stream in the order of where they end, the streams in the text's order")
                .isSorted();
        assertThat(new HashSet<>(actual)).isEqualTo(expected);
    }
}
