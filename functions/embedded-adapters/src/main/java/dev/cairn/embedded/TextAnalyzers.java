package dev.cairn.embedded;

import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.StopFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.cjk.CJKBigramFilter;
import org.apache.lucene.analysis.cjk.CJKWidthFilter;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.analysis.standard.StandardTokenizer;

/**
 * The analysers of the lexical (BM25) field. Public so that the recall benchmark measures exactly what the index
 * uses.
 */
public final class TextAnalyzers {

    private TextAnalyzers() {}

    /**
     * Standard tokens, lower-cased, English stop words dropped ("the", "is" and "what" match most memories). CJK text
     * comes out as single characters.
     */
    public static Analyzer standard() {
        return new StandardAnalyzer(EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
    }

    /**
     * {@link #standard()} with runs of CJK characters turned into overlapping bigrams (a lone character stays a
     * unigram): Chinese has no spaces, and a bigram is the dictionary-free stand-in for a word. Latin text is
     * unchanged. OpenSearch builds the same chain from built-in parts ({@code cjk_width}, {@code lowercase},
     * {@code cjk_bigram}, {@code stop}).
     */
    public static Analyzer cjkBigrams() {
        return new Analyzer() {
            @Override
            protected TokenStreamComponents createComponents(String fieldName) {
                StandardTokenizer source = new StandardTokenizer();
                TokenStream s = new CJKWidthFilter(source);
                s = new LowerCaseFilter(s);
                s = new CJKBigramFilter(s);
                s = new StopFilter(s, EnglishAnalyzer.ENGLISH_STOP_WORDS_SET);
                return new TokenStreamComponents(source, s);
            }

            @Override
            protected TokenStream normalize(String fieldName, TokenStream in) {
                return new LowerCaseFilter(new CJKWidthFilter(in));
            }
        };
    }
}
