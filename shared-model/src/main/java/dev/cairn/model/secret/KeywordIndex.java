package dev.cairn.model.secret;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Aho-Corasick over the rules' keywords: case-insensitive, NFKC-folding, one pass, no allocation per character.
 *
 * <p>Why not the {@code org.ahocorasick} library: its automaton keeps a {@code HashMap<Character, State>} per state
 * and boxes every character of the text; measured here it tops out near 45 MB/s on mixed text, a tenth of what the
 * scanner as a whole must reach. This one is a deterministic automaton over character classes:
 * <ul>
 *   <li>a 64 Ki-entry table gives every UTF-16 unit its class: the lower-cased NFKC fold of the character if that is a
 *       keyword character, else "none" — folding and case cost nothing per character;</li>
 *   <li>the transition table is dense ({@code state × class}), its entries premultiplied row offsets, so a step is
 *       one add and one array read; it follows the class table in the same array (see {@link #ROOT});</li>
 *   <li>states with outputs sit above a power-of-two offset, so "did any stream reach an output" is one OR and one
 *       compare;</li>
 *   <li>long texts run as four independent streams over four quarters in one loop: a single automaton is bound by
 *       the latency of its dependent table reads (each step waits for the last); four chains keep the core busy.
 *       Each later quarter starts its stream one keyword length early, so no occurrence across a boundary is
 *       missed, and reports only what ends inside its own quarter, so none is reported twice.</li>
 * </ul>
 * Characters the fold cannot handle one for one (those NFKC expands, high surrogates) lead to a "special" state
 * reported with keyword {@link #SPECIAL}; the scanner decides what to do with them.
 */
final class KeywordIndex {

    /** Receives each keyword occurrence: the keyword's index and where it starts in the text. */
    interface Hits {
        void at(int keyword, int start);

        /**
         * The same, with the stream (0 to 3) that found it: each stream covers a quarter of the text, in order, and
         * reports its occurrences in the order of where they end.
         */
        default void at(int keyword, int start, int stream) {
            at(keyword, start);
        }
    }

    /** Reported as the keyword of a character NFKC expands or a high surrogate, at that character's index. */
    static final int SPECIAL = -1;

    /** Below this length one stream: splitting would cost more than it saves. */
    private static final int STREAMS_FROM = 4096;

    private static final int SEGMENT = 1024;

    /**
     * Where the states start in {@link #next}; below it, each UTF-16 unit's character class. One array for both
     * look-ups of a step, not a class table beside the transitions: the four-stream loop then holds one array's base
     * and length instead of two, and its values fit the machine's registers without spilling (measured: the whole scan
     * ~10 % faster on 50 MB).
     */
    private static final int ROOT = Character.MAX_VALUE + 1;

    private final int classes;
    private final int[] next;
    /** Offsets at or above this are states with outputs (or the special state). */
    private final int outputFrom;
    /** Outputs per output state, indexed by {@code (offset - outputFrom) / classes}. */
    private final int[][] outputs;

    private final int specialOffset;
    /** ceil(2^32 / classes): see {@link #report}. */
    private final long rowReciprocal;

    private final int[] lengths;
    private final long[] follow;
    private final int longest;

    KeywordIndex(List<String> keywords) {
        this(keywords, null);
    }

    /**
     * @param follow per keyword, four longs: the ASCII characters that may follow it in an occurrence worth reporting,
     *               and those that may follow it after one space (null: all). Other occurrences are dropped before
     *               they are reported: the scanner's follow gates, applied where the text is still in the cache and
     *               without a call.
     */
    KeywordIndex(List<String> keywords, long[] follow) {
        this.follow = follow;
        // 1. character classes: 0 = no keyword character, 1 = special, then one per keyword character
        Map<Character, Integer> classByChar = new HashMap<>();
        List<String> folded = new ArrayList<>(keywords.size());
        for (String word : keywords) {
            String f = fold(word);
            for (int i = 0; i < f.length(); i++) {
                classByChar.computeIfAbsent(f.charAt(i), x -> classByChar.size() + 2);
            }
            folded.add(f);
        }
        classes = classByChar.size() + 2;
        if (classes > 255) {
            throw new IllegalArgumentException("keywords use more than 253 distinct characters");
        }
        byte[] classOf = new byte[Character.MAX_VALUE + 1];
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            char f = Nfkc.FOLD[c];
            if (f == Nfkc.EXPANDS || Character.isHighSurrogate((char) c)) {
                classOf[c] = 1;
            } else {
                Integer k = classByChar.get(lower(f));
                classOf[c] = (byte) (k == null ? 0 : k);
            }
        }
        // 2. the trie
        List<int[]> children = new ArrayList<>(); // per node: child per class, 0 = none
        List<List<Integer>> own = new ArrayList<>();
        children.add(new int[classes]);
        own.add(new ArrayList<>());
        lengths = new int[keywords.size()];
        int max = 1;
        for (int k = 0; k < folded.size(); k++) {
            String word = folded.get(k);
            lengths[k] = word.length();
            max = Math.max(max, word.length());
            int node = 0;
            for (int i = 0; i < word.length(); i++) {
                int cls = classByChar.get(word.charAt(i));
                if (children.get(node)[cls] == 0) {
                    children.add(new int[classes]);
                    own.add(new ArrayList<>());
                    children.get(node)[cls] = children.size() - 1;
                }
                node = children.get(node)[cls];
            }
            own.get(node).add(k);
        }
        longest = max;
        int n = children.size();
        // 3. failure links, merged outputs and the complete transition function, breadth first
        int[] fail = new int[n];
        int[][] out = new int[n][];
        int[][] delta = new int[n][classes];
        out[0] = new int[0];
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        int[] breadthFirst = new int[n];
        int visited = 1; // the root
        for (int c = 0; c < classes; c++) {
            delta[0][c] = children.get(0)[c];
            if (delta[0][c] != 0) {
                queue.add(delta[0][c]);
            }
        }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            breadthFirst[visited++] = s;
            List<Integer> merged = new ArrayList<>(own.get(s));
            for (int k : out[fail[s]]) {
                merged.add(k);
            }
            out[s] = merged.stream().mapToInt(Integer::intValue).toArray();
            for (int c = 0; c < classes; c++) {
                int t = children.get(s)[c];
                if (t != 0) {
                    fail[t] = delta[fail[s]][c];
                    delta[s][c] = t;
                    queue.add(t);
                } else {
                    delta[s][c] = delta[fail[s]][c];
                }
            }
        }
        // 4. layout: states without outputs first, then (from a power of two) those with outputs and the special state;
        // each group in breadth-first order, so the shallow states, where the automaton spends nearly all its steps,
        // share a few cache lines
        int[] offset = new int[n + 1];
        int plain = 0;
        for (int s : breadthFirst) {
            if (out[s].length == 0) {
                offset[s] = ROOT + plain++ * classes;
            }
        }
        outputFrom = Integer.highestOneBit(ROOT + plain * classes - 1) << 1;
        List<int[]> outputList = new ArrayList<>();
        for (int s : breadthFirst) {
            if (out[s].length > 0) {
                offset[s] = outputFrom + outputList.size() * classes;
                outputList.add(out[s]);
            }
        }
        specialOffset = outputFrom + outputList.size() * classes;
        outputList.add(new int[0]);
        outputs = outputList.toArray(new int[0][]);
        rowReciprocal = ((1L << 32) + classes - 1) / classes;
        next = new int[specialOffset + classes];
        for (int c = 0; c <= Character.MAX_VALUE; c++) {
            next[c] = classOf[c];
        }
        for (int s = 0; s < n; s++) {
            for (int c = 0; c < classes; c++) {
                next[offset[s] + c] = c == 1 ? specialOffset : offset[delta[s][c]];
            }
        }
        for (int c = 0; c < classes; c++) {
            next[specialOffset + c] = c == 1 ? specialOffset : offset[delta[0][c]]; // after a special: from the root
        }
    }

    /**
     * Every keyword occurrence in {@code text}, and every special character; within each stream in the order of where
     * they end (several keywords ending at one place in no particular order).
     */
    void scan(String text, Hits hits) {
        scan(text, 0, text.length(), hits);
    }

    /**
     * The occurrences that end in {@code [from, to)} (they may start before {@code from}), and the special characters
     * there. Scanning consecutive ranges reports each occurrence of the whole text exactly once.
     */
    void scan(String text, int from, int to, Hits hits) {
        int warm = longest - 1;
        int n = to - from;
        if (n < STREAMS_FROM) {
            run(text, Math.max(0, from - warm), from, to, ROOT, 0, hits);
            return;
        }
        int quarter = (n + 3) / 4;
        // stream j reports what ends in [from + j * quarter, its end) and starts reading a keyword length earlier
        int[] reportFrom = {from, from + quarter, from + 2 * quarter, from + 3 * quarter};
        int[] ends = {from + quarter, from + 2 * quarter, from + 3 * quarter, to};
        int[] starts = new int[4];
        int steps = Integer.MAX_VALUE;
        for (int j = 0; j < 4; j++) {
            starts[j] = Math.max(0, reportFrom[j] - warm);
            steps = Math.min(steps, ends[j] - starts[j]);
        }
        int f0 = starts[0];
        int f1 = starts[1];
        int f2 = starts[2];
        int f3 = starts[3];
        // The hot loop makes no calls (a call there would cost the four chains their registers): the rare steps
        // where a stream reaches an output state are noted, one segment at a time, and reported after it, while that
        // stretch of text is still in the cache (the receiver reads the characters after each keyword).
        int[] states = {ROOT, ROOT, ROOT, ROOT};
        int[] noted = new int[Math.min(SEGMENT, steps) * 5];
        for (int segment = 0; segment < steps; segment += SEGMENT) {
            int k = fourStreams(
                    text, next, outputFrom, f0, f1, f2, f3, segment, Math.min(steps, segment + SEGMENT), states, noted);
            for (int x = 0; x < k; x += 5) {
                for (int j = 0; j < 4; j++) {
                    report(text, noted[x + 1 + j], starts[j] + noted[x], reportFrom[j], j, hits);
                }
            }
        }
        // the rest of each quarter (each stream spent some steps warming up; the last quarter may be shorter)
        for (int j = 0; j < 4; j++) {
            run(text, starts[j] + steps, reportFrom[j], ends[j], states[j], j, hits);
        }
    }

    /** Steps {@code [from, to)} of the four streams; notes (step, four states) where any reaches an output. */
    @SuppressWarnings("checkstyle:ParameterNumber")
    private static int fourStreams(
            String text,
            int[] delta,
            int out,
            int f0,
            int f1,
            int f2,
            int f3,
            int from,
            int to,
            int[] states,
            int[] noted) {
        int s0 = states[0];
        int s1 = states[1];
        int s2 = states[2];
        int s3 = states[3];
        int k = 0;
        for (int i = from; i < to; i++) {
            s0 = delta[s0 + delta[text.charAt(f0 + i)]];
            s1 = delta[s1 + delta[text.charAt(f1 + i)]];
            s2 = delta[s2 + delta[text.charAt(f2 + i)]];
            s3 = delta[s3 + delta[text.charAt(f3 + i)]];
            if ((s0 | s1 | s2 | s3) >= out) {
                noted[k] = i;
                noted[k + 1] = s0;
                noted[k + 2] = s1;
                noted[k + 3] = s2;
                noted[k + 4] = s3;
                k += 5;
            }
        }
        states[0] = s0;
        states[1] = s1;
        states[2] = s2;
        states[3] = s3;
        return k;
    }

    /** One stream from {@code state} over {@code [from, to)}, reporting what ends at or after {@code reportFrom}. */
    private void run(String text, int from, int reportFrom, int to, int state, int stream, Hits hits) {
        int s = state;
        for (int i = from; i < to; i++) {
            s = next[s + next[text.charAt(i)]];
            if (s >= outputFrom) {
                report(text, s, i, reportFrom, stream, hits);
            }
        }
    }

    /** Whether any keyword occurs in {@code text} (stops at the first). */
    boolean occursIn(String text) {
        int s = ROOT;
        for (int i = 0; i < text.length(); i++) {
            s = next[s + next[text.charAt(i)]];
            if (s >= outputFrom && s != specialOffset) {
                return true;
            }
        }
        return false;
    }

    private void report(String text, int state, int end, int reportFrom, int stream, Hits hits) {
        if (state < outputFrom || end < reportFrom) {
            return;
        }
        if (state == specialOffset) {
            hits.at(SPECIAL, end, stream);
            return;
        }
        char after = end + 1 < text.length() ? Nfkc.FOLD[text.charAt(end + 1)] : 0xFFFF;
        char second = after == ' ' && end + 2 < text.length() ? Nfkc.FOLD[text.charAt(end + 2)] : 0xFFFF;
        // output rows sit at multiples of the row width: a multiply by its reciprocal divides exactly, without the
        // slow integer division
        for (int k : outputs[(int) (((long) (state - outputFrom) * rowReciprocal) >>> 32)]) {
            if (follow != null
                    && (after < 128 && (follow[k * 4 + (after >> 6)] & (1L << after)) == 0
                            || second < 128 && (follow[k * 4 + 2 + (second >> 6)] & (1L << second)) == 0)) {
                continue;
            }
            hits.at(k, end - lengths[k] + 1, stream);
        }
    }

    /** The keyword as the automaton matches it: NFKC-folded and lower case, character by character. */
    static String fold(String keyword) {
        StringBuilder f = new StringBuilder(keyword.length());
        for (int i = 0; i < keyword.length(); i++) {
            f.append(lower(Nfkc.FOLD[keyword.charAt(i)]));
        }
        return f.toString();
    }

    private static char lower(char c) {
        if (c < 128) {
            return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
        }
        char l = Character.toLowerCase(c);
        return l < 128 ? c : l; // Java's (?i) folds ASCII only: İ is not i, K (Kelvin) already folded to K by NFKC
    }
}
