package dev.cairn.model.consolidate;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Decides how a new statement relates to a stored one that the index found similar: the same fact again, the same
 * subject with a new value, or a different fact.
 *
 * <p>The rule works on word tokens (Han characters one by one, since Chinese has no spaces) after dropping words that
 * mark time rather than content ("now", "currently", "现在", "目前" …), so "We now use PostgreSQL 17" and "We use
 * PostgreSQL 16" differ in exactly one token. It is deliberately lopsided: calling two facts duplicates loses the
 * newer one's information, calling a restatement a contradiction only replaces a fact by its newer wording (the old
 * one is kept as history), so anything short of the same words is at most a contradiction, and a contradiction needs
 * a shared subject (most tokens in common, at least two) plus an embedding similarity above a floor. Statements that
 * add rather than replace ("also", "too", "as well", "也", "还") are never contradictions.
 */
public final class FactComparison {

    public enum Relation { DUPLICATE, CONTRADICTION, DISTINCT }

    /**
     * @param minSimilarity cosine similarity below which two statements are unrelated whatever their words
     * @param minOverlap    shared tokens ÷ all tokens (Jaccard) needed for "same subject"
     * @param maxChanged    most tokens either side may differ by and still be the same subject with a new value
     */
    public record Thresholds(double minSimilarity, double minOverlap, int maxChanged) {

        public Thresholds {
            if (!(minSimilarity >= -1 && minSimilarity <= 1) || !(minOverlap > 0 && minOverlap <= 1)
                    || maxChanged < 1) {
                throw new IllegalArgumentException("bad consolidation thresholds");
            }
        }

        public static Thresholds defaults() {
            return new Thresholds(0.6, 0.5, 4);
        }
    }

    private static final Set<String> TIME_MARKERS = Set.of("now", "currently", "actually", "instead", "anymore",
            "nowadays", "today", "still", "a", "an", "the");
    private static final Set<String> ADDITIVE = Set.of("also", "too", "additionally");
    private static final String[] CJK_TIME_MARKERS = {"现在", "目前", "如今", "已经", "仍然", "依然"};
    private static final String[] CJK_ADDITIVE = {"也", "还有", "另外", "同时"};

    private final Thresholds thresholds;

    public FactComparison(Thresholds thresholds) {
        this.thresholds = thresholds;
    }

    public Relation relate(String a, String b, double similarity) {
        List<String> ta = tokens(a);
        List<String> tb = tokens(b);
        if (ta.equals(tb)) {
            return Relation.DUPLICATE;
        }
        if (similarity < thresholds.minSimilarity() || additive(a) || additive(b)) {
            return Relation.DISTINCT;
        }
        Set<String> sa = new HashSet<>(ta);
        Set<String> sb = new HashSet<>(tb);
        Set<String> shared = new HashSet<>(sa);
        shared.retainAll(sb);
        Set<String> union = new HashSet<>(sa);
        union.addAll(sb);
        if (shared.size() < 2 || (double) shared.size() / union.size() < thresholds.minOverlap()) {
            return Relation.DISTINCT;
        }
        int onlyA = sa.size() - shared.size();
        int onlyB = sb.size() - shared.size();
        if (onlyA > thresholds.maxChanged() || onlyB > thresholds.maxChanged()) {
            return Relation.DISTINCT;
        }
        return Relation.CONTRADICTION;
    }

    /** The content tokens of a statement, in order: lower case, NFKC, time markers and articles dropped. */
    static List<String> tokens(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        for (String marker : CJK_TIME_MARKERS) {
            s = s.replace(marker, " ");
        }
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        s.codePoints().forEach(cp -> {
            if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
                flush(word, out);
                out.add(new String(Character.toChars(cp)));
            } else if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
            } else {
                flush(word, out);
            }
        });
        flush(word, out);
        return out;
    }

    private static void flush(StringBuilder word, List<String> out) {
        if (word.length() > 0) {
            String w = word.toString();
            if (!TIME_MARKERS.contains(w)) {
                out.add(w);
            }
            word.setLength(0);
        }
    }

    private static boolean additive(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        if (s.contains("as well")) {
            return true;
        }
        for (String m : CJK_ADDITIVE) {
            if (s.contains(m)) {
                return true;
            }
        }
        for (String w : s.split("[^\\p{L}\\p{N}]+")) {
            if (ADDITIVE.contains(w)) {
                return true;
            }
        }
        return false;
    }
}
