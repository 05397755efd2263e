package dev.cairn.model.consolidate;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Decides how a new statement relates to a stored one that the index found similar: the same fact again, the same
 * subject with a new value, or a different fact.
 *
 * <p>The rule works on word tokens (Han characters one by one, since Chinese has no spaces) after dropping words that
 * mark time rather than content ("now", "currently", "现在", "目前" …), so "We now use PostgreSQL 17" and "We use
 * PostgreSQL 16" differ in exactly one token. It is deliberately lopsided: calling two facts duplicates loses the
 * newer one's information, calling a restatement a contradiction only replaces a fact by its newer wording (the old
 * one is kept as history), so anything short of the same words is at most a contradiction, and a contradiction needs
 * a shared subject: most tokens in common (at least two), a common beginning (subjects lead) and one short changed
 * stretch before a common end, and an embedding similarity above a floor. Words that say how a fact was arrived at
 * ("decided to", "will", "决定"), time and frequency words ("now", "always", "these days"), hedges ("I think") and the
 * alternative a preference turns down ("Kotlin over [Java]") are not compared, and "I'd rather use" reads as "I
 * prefer". Statements that add rather than replace ("also", "too", "as well", "也", "还有") are never contradictions.
 */
public final class FactComparison {

    public enum Relation {
        DUPLICATE,
        CONTRADICTION,
        DISTINCT
    }

    /**
     * @param minSimilarity cosine similarity below which two statements are unrelated whatever their words
     * @param minOverlap    shared tokens ÷ all tokens (Jaccard) needed for "same subject"
     * @param maxChanged    most tokens the one changed stretch may hold on either side for a new value of the same
     *                      subject
     */
    public record Thresholds(double minSimilarity, double minOverlap, int maxChanged) {

        public Thresholds {
            if (!(minSimilarity >= -1 && minSimilarity <= 1)
                    || !(minOverlap > 0 && minOverlap <= 1)
                    || maxChanged < 1) {
                throw new IllegalArgumentException("bad consolidation thresholds");
            }
        }

        public static Thresholds defaults() {
            // measured with bge-small-en-v1.5: a new value for the same subject scores 0.75–0.93 (ap-southeast-2 →
            // eu-west-1 0.77, Jenkins → GitHub Actions 0.82, PostgreSQL 16 → 17 0.93); unrelated facts of the same
            // thing 0.61–0.75, which the changed-stretch rule tells apart
            return new Thresholds(0.7, 0.5, 3);
        }
    }

    /**
     * Words that say when, how often or how firmly something holds rather than what holds: "I always prefer Kotlin",
     * "I actually prefer Kotlin" and "I prefer Kotlin" state one preference. Words that change what holds ("never",
     * "sometimes", "no longer", "not") are not among them.
     */
    private static final Set<String> TIME_MARKERS = Set.of(
            "now",
            "currently",
            "actually",
            "instead",
            "anymore",
            "nowadays",
            "today",
            "still",
            "always",
            "usually",
            "generally",
            "typically",
            "normally",
            "lately",
            "recently",
            "presently",
            "really",
            "definitely",
            "honestly",
            "personally",
            "frankly",
            "a",
            "an",
            "the");
    /** The same as {@link #TIME_MARKERS}, in more than one word, and hedges ("I think"). */
    private static final Pattern TIME_PHRASES = Pattern.compile(
            "\\b(?:these days|from now on|going forward|at the moment|at present|right now|for now|by now|as of now|"
                    + "at this point|for the time being|in fact|to be honest|in my opinion|"
                    + "i (?:think|believe|guess|suppose)(?: that)?)\\b");
    /**
     * Other ways to say "prefer": "I'd rather use Go", "I would prefer Go", "I prefer to use Go" and "I prefer Go"
     * state one preference.
     */
    private static final Pattern PREFERENCE = Pattern.compile(
            "(?:\\bwould|['’]d)\\s+rather(?:\\s+(?:use|have|go with|pick|choose|work with|write|run))?\\b"
                    + "|(?:\\bwould|['’]d)\\s+prefer\\b"
                    + "|\\bprefer\\s+(?:to use|using)\\b");
    /**
     * Words that end the rejected alternative of a comparison ("Kotlin over [Java] for new services"): the qualifier
     * that follows belongs to the subject.
     */
    private static final String ALTERNATIVE_END = "(?:for|in|on|at|to|with|when|while|because|since|as|if|during|"
            + "from|by|via|within|and|but|or|now|these|nowadays|anymore)";
    /** One to four words of a rejected alternative, up to a qualifier, a clause mark or the end. */
    private static final String ALTERNATIVE = "((?:\\s+(?!" + ALTERNATIVE_END + "\\b)[^\\s,;:!?()]+){1,4})";
    /**
     * The alternative a statement turns down is not its value: "I prefer Kotlin over Java" states the value Kotlin,
     * as "I prefer Kotlin" does. "rather than" and "instead of" always introduce one; "over" and "than" only after a
     * word of choosing ("we deploy over SSH" keeps its "over").
     */
    private static final Pattern REJECTED = Pattern.compile("\\b(?:rather than|instead of)" + ALTERNATIVE);

    private static final Pattern REJECTED_AFTER_CHOICE = Pattern.compile(
            "(\\b(?:prefer|prefers|preferred|favou?rs?|favou?red|choose|chooses|chose|pick|picks|picked)\\b"
                    + "[^,;:!?]*?)\\s+(?:over|than)"
                    + ALTERNATIVE);
    /** How a fact was arrived at, not what it is: "we decided to use X" states the same as "we use X". */
    private static final Pattern FRAMES = Pattern.compile(
            "\\b(?:have |'ve )?(?:decided|agreed|chosen|chose|planned|plan|are going|were going|going|switched|moved|"
                    + "migrated|changed)(?: over)?(?: to| that| on)?\\b|\\bwill\\b|决定|打算|计划");

    private static final Set<String> ADDITIVE = Set.of("also", "too", "additionally");
    /** Words that open what a thing is used for; a change after them alone is another use, not a new value. */
    private static final Set<String> PURPOSE = Set.of("for");
    /**
     * Prepositions: each opens a part of the statement that says where, when, for what or with what something holds.
     * A changed stretch that opens with another one ("deploy [on Tuesdays]" / "deploy [to eu-west-1]") or that holds
     * the same one on both sides with a change on either side of it ("prefer [pytest for Python] tests" / "prefer
     * [Jest for JavaScript] tests") changes what the statement is about, not only its value.
     */
    private static final Set<String> PREPOSITIONS = Set.of(
            "for", "in", "on", "at", "to", "with", "from", "by", "via", "around", "during", "within", "into", "onto",
            "under", "without", "per", "through", "across", "after", "before", "until", "since", "about");

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
        // one changed stretch between a common beginning (the subject leads, so it must not be empty) and a common
        // end: "X uses [Jenkins] for its CI" → "X uses [GitHub Actions] for its CI" is a new value; "X uses [Jenkins
        // for its CI]" → "X uses [Datadog for its monitoring]" changes too much to be the same subject
        int prefix = 0;
        while (prefix < ta.size() && prefix < tb.size() && ta.get(prefix).equals(tb.get(prefix))) {
            prefix++;
        }
        if (prefix == 0) {
            return Relation.DISTINCT;
        }
        int suffix = 0;
        while (suffix < ta.size() - prefix
                && suffix < tb.size() - prefix
                && ta.get(ta.size() - 1 - suffix).equals(tb.get(tb.size() - 1 - suffix))) {
            suffix++;
        }
        if (suffix == 0 && PURPOSE.contains(ta.get(prefix - 1))) {
            // "We use Redis for [session caching]" → "… for [rate limiting]": the same value put to another use, two
            // facts side by side; a new value stands before the "for" ("We use [Memcached] for caching")
            return Relation.DISTINCT;
        }
        List<String> changedA = ta.subList(prefix, ta.size() - suffix);
        List<String> changedB = tb.subList(prefix, tb.size() - suffix);
        if (changedA.size() > thresholds.maxChanged() || changedB.size() > thresholds.maxChanged()) {
            return Relation.DISTINCT;
        }
        if (!changedA.isEmpty()
                && !changedB.isEmpty()
                && PREPOSITIONS.contains(changedA.get(0))
                && PREPOSITIONS.contains(changedB.get(0))) {
            // "We deploy [on Tuesdays]" → "We deploy [to eu-west-1]": when and where, two facts (a new value after
            // the same preposition is in the common beginning: "deploy to [eu-west-1]" → "deploy to [us-east-1]")
            return Relation.DISTINCT;
        }
        for (String word : changedA) {
            if (PREPOSITIONS.contains(word) && changedB.contains(word)) {
                // "I prefer [pytest for Python] tests" → "I prefer [Jest for JavaScript] tests": the value and what
                // it is for both changed, another subject
                return Relation.DISTINCT;
            }
        }
        return Relation.CONTRADICTION;
    }

    /**
     * The words the rule compares, as one text: the statement without its time words, hedges, framing and turned
     * down alternative. Two statements that word one subject differently ("I always prefer Kotlin over Java for new
     * services" / "These days I'd rather use Go for new services") are nearer in these words than as said, so this is
     * the text to embed when a raw similarity falls short of the floor.
     */
    public String compared(String text) {
        StringBuilder out = new StringBuilder();
        String last = null;
        for (String t : tokens(text)) {
            boolean han = Character.UnicodeScript.of(t.codePointAt(0)) == Character.UnicodeScript.HAN;
            if (last != null
                    && !(han && Character.UnicodeScript.of(last.codePointAt(0)) == Character.UnicodeScript.HAN)) {
                out.append(' ');
            }
            out.append(t);
            last = t;
        }
        return out.toString();
    }

    /**
     * Whether the two statements would contradict at full similarity: the words say "the same subject, a new value",
     * and only the embedding similarity can still say otherwise.
     */
    public boolean contradictsByWords(String a, String b) {
        return relate(a, b, 1.0) == Relation.CONTRADICTION;
    }

    /**
     * The content tokens of a statement, in order: lower case, NFKC, time markers, hedges, framing, articles and a
     * turned down alternative dropped, other words for "prefer" read as "prefer".
     */
    static List<String> tokens(String text) {
        String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
        for (String marker : CJK_TIME_MARKERS) {
            s = s.replace(marker, " ");
        }
        s = TIME_PHRASES.matcher(s.replaceAll("\\s+", " ")).replaceAll(" ");
        s = PREFERENCE.matcher(s).replaceAll(" prefer");
        s = REJECTED.matcher(s).replaceAll(" ");
        s = REJECTED_AFTER_CHOICE.matcher(s).replaceAll("$1 ");
        s = FRAMES.matcher(s.replace("改用", "用").replace("换用", "用")).replaceAll(" ");
        List<String> out = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        int[] cps = s.codePoints().toArray();
        for (int i = 0; i < cps.length; i++) {
            int cp = cps[i];
            if (Character.UnicodeScript.of(cp) == Character.UnicodeScript.HAN) {
                flush(word, out);
                out.add(new String(Character.toChars(cp)));
            } else if (Character.isLetterOrDigit(cp)) {
                word.appendCodePoint(cp);
            } else if (cp == '.' && word.length() > 0 && i + 1 < cps.length && Character.isLetterOrDigit(cps[i + 1])) {
                word.append('.'); // one token: 1.23, incident.io, vYYYY.MM.DD
            } else {
                flush(word, out);
            }
        }
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
