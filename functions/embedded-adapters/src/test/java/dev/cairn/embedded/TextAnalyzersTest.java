package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.recall.LexicalAnalysis;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.WordlistLoader;
import org.apache.lucene.analysis.snowball.SnowballFilter;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.util.IOUtils;
import org.junit.jupiter.api.Test;

class TextAnalyzersTest {

    private static List<String> terms(Analyzer a, String text) throws IOException {
        List<String> out = new ArrayList<>();
        try (TokenStream ts = a.tokenStream("text", text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken()) {
                out.add(term.toString());
            }
            ts.end();
        }
        return out;
    }

    @Test
    void theSharedStopList_isTheSnowballListLuceneShips() throws IOException {
        CharArraySet lucene;
        try (var reader = IOUtils.getDecodingReader(SnowballFilter.class, "english_stop.txt", StandardCharsets.UTF_8)) {
            lucene = WordlistLoader.getSnowballWordSet(reader);
        }
        Set<String> shipped = new HashSet<>();
        lucene.forEach(w -> shipped.add(new String((char[]) w)));
        assertThat(new HashSet<>(LexicalAnalysis.SNOWBALL_ENGLISH_STOP_WORDS)).isEqualTo(shipped);
        assertThat(LexicalAnalysis.SNOWBALL_ENGLISH_STOP_WORDS).doesNotHaveDuplicates();
    }

    @Test
    void english_dropsQuestionWordsAndStems_andCutsChineseIntoBigramsAsBefore() throws IOException {
        assertThat(terms(TextAnalyzers.english(), "Which deployments did my team's PostgreSQL 16 upgrade break?"))
                .containsExactly("deploy", "team", "postgresql", "16", "upgrad", "break");
        assertThat(terms(TextAnalyzers.english(), "周末我们去咖啡馆")).isEqualTo(terms(TextAnalyzers.cjkBigrams(), "周末我们去咖啡馆"));
    }
}
