package dev.cairn.model.secret;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Aho-Corasick over the rules' keywords, case-insensitive, one pass, no allocation per character.
 *
 * <p>Why not the {@code org.ahocorasick} library: its automaton keeps a {@code HashMap<Character, State>} per state
 * and boxes every character of the text; measured here it tops out near 45 MB/s on mixed text, which alone made the
 * scanner 25 times slower than its goal. This automaton is a full transition table for ASCII (the alphabet of nearly
 * every keyword) and a sparse map only for the few non-ASCII keyword characters (密码, パスワード, ñ), so the inner loop
 * is one array read per character.
 */
final class KeywordIndex {

    /** Receives each keyword occurrence: the keyword's index and where it starts in the text. */
    interface Hits {
        void at(int keyword, int start);
    }

    private static final int ASCII = 128;

    private final int[] asciiNext;
    private final List<Map<Character, Integer>> wideChildren;
    private final BitSet wideChars = new BitSet(Character.MAX_VALUE + 1);
    private final int[] fail;
    private final int[][] outputs;
    private final int[] lengths;
    private final boolean[] hasOutput;

    KeywordIndex(List<String> keywords) {
        List<Map<Character, Integer>> children = new ArrayList<>();
        List<List<Integer>> own = new ArrayList<>();
        children.add(new HashMap<>());
        own.add(new ArrayList<>());
        lengths = new int[keywords.size()];
        for (int k = 0; k < keywords.size(); k++) {
            String word = keywords.get(k);
            lengths[k] = word.length();
            int node = 0;
            for (int i = 0; i < word.length(); i++) {
                char c = lower(word.charAt(i));
                Integer next = children.get(node).get(c);
                if (next == null) {
                    next = children.size();
                    children.add(new HashMap<>());
                    own.add(new ArrayList<>());
                    children.get(node).put(c, next);
                }
                node = next;
                if (c >= ASCII) {
                    wideChars.set(c);
                    wideChars.set(Character.toUpperCase(c)); // checked on the raw text, before lower-casing
                    wideChars.set(Character.toTitleCase(c));
                }
            }
            own.get(node).add(k);
        }
        int n = children.size();
        fail = new int[n];
        outputs = new int[n][];
        hasOutput = new boolean[n];
        asciiNext = new int[n * ASCII];
        wideChildren = new ArrayList<>(n);
        for (int s = 0; s < n; s++) {
            Map<Character, Integer> wide = new HashMap<>();
            children.get(s).forEach((c, t) -> {
                if (c >= ASCII) {
                    wide.put(c, t);
                }
            });
            wideChildren.add(wide);
        }
        // breadth-first: failure links, merged outputs, and the complete ASCII transition table
        ArrayDeque<Integer> queue = new ArrayDeque<>();
        outputs[0] = new int[0];
        for (int c = 0; c < ASCII; c++) {
            Integer t = children.get(0).get((char) c);
            asciiNext[c] = t == null ? 0 : t;
        }
        for (Integer t : children.get(0).values()) {
            fail[t] = 0;
            queue.add(t);
        }
        while (!queue.isEmpty()) {
            int s = queue.poll();
            List<Integer> out = new ArrayList<>(own.get(s));
            for (int k : outputs[fail[s]]) {
                out.add(k);
            }
            outputs[s] = out.stream().mapToInt(Integer::intValue).toArray();
            hasOutput[s] = outputs[s].length > 0;
            for (int c = 0; c < ASCII; c++) {
                Integer t = children.get(s).get((char) c);
                asciiNext[s * ASCII + c] = t == null ? asciiNext[fail[s] * ASCII + c] : t;
            }
            for (Map.Entry<Character, Integer> e : children.get(s).entrySet()) {
                int t = e.getValue();
                fail[t] = step(fail[s], e.getKey());
                queue.add(t);
            }
        }
    }

    /** Every keyword occurrence in {@code text}, in order of where it ends. */
    void scan(CharSequence text, Hits hits) {
        int state = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < ASCII) {
                state = asciiNext[state * ASCII + (c >= 'A' && c <= 'Z' ? c + 32 : c)];
            } else if (!wideChars.get(c)) {
                state = 0; // no keyword has this character (in any case)
            } else {
                state = step(state, Character.toLowerCase(c));
            }
            if (hasOutput[state]) {
                for (int k : outputs[state]) {
                    hits.at(k, i - lengths[k] + 1);
                }
            }
        }
    }

    private int step(int state, char c) {
        if (c < ASCII) {
            return asciiNext[state * ASCII + c];
        }
        int s = state;
        while (true) {
            Integer t = wideChildren.get(s).get(c);
            if (t != null) {
                return t;
            }
            if (s == 0) {
                return 0;
            }
            s = fail[s];
        }
    }

    private static char lower(char c) {
        if (c < ASCII) {
            return c >= 'A' && c <= 'Z' ? (char) (c + 32) : c;
        }
        return Character.toLowerCase(c);
    }
}
