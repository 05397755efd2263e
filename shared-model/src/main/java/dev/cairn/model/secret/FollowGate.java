package dev.cairn.model.secret;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which characters may follow a keyword in a match of an anchored rule, learned from the rule's own pattern: a
 * keyword occurrence followed by anything else cannot start a match, so the pattern is not run there.
 *
 * <p>Why: frequent keywords ({@code password}, {@code token}, {@code authorization}) occur mostly in prose and code
 * that states no secret ({@code password policy}, {@code token usage}, {@code getHeader("Authorization")}). Each
 * pattern attempt costs a matcher reset and a walk through alternations; one bit test per occurrence is far cheaper.
 *
 * <p>How it stays exact: for each ASCII character {@code c} the pattern is tried on {@code keyword + c} alone. If it
 * neither matches nor {@linkplain Matcher#hitEnd() hit the end of that input}, no text that continues
 * {@code keyword + c} can match either. The same is learned for {@code keyword + " " + c} (the usual single space
 * before an operator or a verb) and, the first time a pair of characters is met, for {@code keyword + c + d}. A
 * pattern that fails for every probe in every spelling of the keyword (it needs context before the keyword, such as a
 * lookbehind or a word boundary before a non-word keyword) gets no gate. Case-sensitive patterns are probed with the
 * keyword in lower and in upper case; any other spelling the text uses is probed alone, once, and remembered.
 */
final class FollowGate {

    private final Pattern pattern;
    private final String keyword;
    private final boolean caseInsensitive;
    private final Follow lower;
    private final Follow upper;

    private FollowGate(Pattern pattern, String keyword, boolean caseInsensitive, Follow lower, Follow upper) {
        this.pattern = pattern;
        this.keyword = keyword;
        this.caseInsensitive = caseInsensitive;
        this.lower = lower;
        this.upper = upper;
    }

    /** The gate of {@code pattern} after {@code keyword} (lower case, folded), or null if nothing can be learned. */
    static FollowGate learn(Pattern pattern, String keyword) {
        boolean ci = (pattern.flags() & Pattern.CASE_INSENSITIVE) != 0
                || pattern.pattern().startsWith("(?i)")
                || insideLeadingCaseInsensitiveGroup(pattern.pattern(), keyword);
        Follow lower = Follow.learn(pattern, keyword);
        Follow upper = ci ? Follow.NONE : Follow.learn(pattern, keyword.toUpperCase(Locale.ROOT));
        if (lower.isEmpty() && upper.isEmpty()) {
            return null; // no spelling can be continued without context before the keyword: learn nothing
        }
        return new FollowGate(pattern, keyword, ci, lower, upper);
    }

    /**
     * Whether the pattern opens with a case-insensitive group ({@code (?i:...)}, after an optional {@code \b}) that
     * matches the keyword's start, the rest of the keyword having no letters: then how the text spells the keyword
     * changes nothing that follows, as with a pattern that is case-insensitive throughout.
     */
    private static boolean insideLeadingCaseInsensitiveGroup(String pattern, String keyword) {
        String p = pattern.startsWith("\\b") ? pattern.substring(2) : pattern;
        if (!p.startsWith("(?i:")) {
            return false;
        }
        int close = p.indexOf(')');
        String group = close < 0 ? "" : p.substring(0, close + 1);
        if (group.indexOf('(', 1) >= 0 || group.contains("[") || group.contains("\\")) {
            return false;
        }
        Matcher m = Pattern.compile(group).matcher(keyword);
        return m.lookingAt() && keyword.substring(m.end()).chars().noneMatch(Character::isLetter);
    }

    private static boolean mayContinue(Pattern pattern, String probe) {
        Matcher m = pattern.matcher(probe);
        return m.lookingAt() || m.hitEnd();
    }

    /**
     * Every gate of a scanner (one per keyword and rule) in flat arrays: a hit reads a few longs next to those of the
     * keyword's other rules, instead of chasing a gate object, its follow sets and its keyword string through the heap.
     */
    static final class Table {
        private static final int LONGS = 8; // lower first0, first1, space0, space1; then the same for upper case
        private static final int ASCII = 128;

        private final long[] bits;
        /** 0: no gate; 1: case-insensitive (the lower-case sets); 2: as the text spells the keyword. */
        private final byte[] mode;

        private final String[] keywords;
        private final Pattern[] patterns;
        /**
         * Per gate, spelling (lower, upper) and first character: the characters that may come second, learned the
         * first time the pair is met (128 probes, some 50 µs) and kept.
         */
        private final AtomicReferenceArray<long[]> second;
        /** Other spellings of a case-sensitive keyword ({@code sK}): whether the pattern can start with them. */
        private final Map<Long, Boolean> spellings = new ConcurrentHashMap<>();

        Table(FollowGate[] gates) {
            bits = new long[gates.length * LONGS];
            mode = new byte[gates.length];
            keywords = new String[gates.length];
            patterns = new Pattern[gates.length];
            second = new AtomicReferenceArray<>(gates.length * 2 * ASCII);
            for (int g = 0; g < gates.length; g++) {
                FollowGate gate = gates[g];
                if (gate == null) {
                    continue;
                }
                mode[g] = (byte) (gate.caseInsensitive ? 1 : 2);
                keywords[g] = gate.keyword;
                patterns[g] = gate.pattern;
                System.arraycopy(gate.lower.longs(), 0, bits, g * LONGS, 4);
                System.arraycopy(gate.upper.longs(), 0, bits, g * LONGS + 4, 4);
            }
        }

        /**
         * The characters that may follow the keyword of gate {@code g} whatever its spelling, and those that may
         * follow it after one space, as four longs in {@code into} at {@code at} (or-ed in): all of them if the gate
         * is missing or depends on the spelling.
         */
        void addFollowSets(int g, long[] into, int at) {
            for (int i = 0; i < 4; i++) {
                into[at + i] |= mode[g] == 1 ? bits[g * LONGS + i] : -1L;
            }
        }

        /** False only if the keyword of gate {@code g} at {@code start} of the (folded) text cannot start a match. */
        boolean mayMatch(int g, String raw, int start, int keywordLength) {
            int m = mode[g];
            int end = start + keywordLength;
            if (m == 0 || end >= raw.length()) {
                return true;
            }
            int variant = 0;
            if (m == 2) {
                variant = spelledAs(keywords[g], raw, start);
                if (variant < 0) {
                    return otherSpellingMayMatch(g, raw, start);
                }
            }
            int base = g * LONGS + variant * 4;
            char c = Nfkc.FOLD[raw.charAt(end)];
            if (c >= ASCII) {
                return true;
            }
            if ((bits[base + (c >> 6)] & (1L << c)) == 0) {
                return false;
            }
            if (end + 1 >= raw.length()) {
                return true;
            }
            char d = Nfkc.FOLD[raw.charAt(end + 1)];
            if (d >= ASCII) {
                return true;
            }
            if (c == ' ') {
                return (bits[base + 2 + (d >> 6)] & (1L << d)) != 0;
            }
            long[] next = second.get((g * 2 + variant) * ASCII + c);
            if (next == null) {
                String spelled = variant == 0 ? keywords[g] : keywords[g].toUpperCase(Locale.ROOT);
                next = Follow.firstOnly(patterns[g], spelled + c);
                second.set((g * 2 + variant) * ASCII + c, next);
            }
            return (next[d >> 6] & (1L << d)) != 0;
        }

        /** 0 if the text spells the keyword in lower case, 1 if in upper case, else -1. */
        private static int spelledAs(String keyword, String raw, int start) {
            boolean isLower = true;
            boolean isUpper = true;
            for (int i = 0; i < keyword.length() && (isLower || isUpper); i++) {
                char c = Nfkc.FOLD[raw.charAt(start + i)];
                char k = keyword.charAt(i);
                isLower &= c == k;
                isUpper &= c == Character.toUpperCase(k);
            }
            return isLower ? 0 : isUpper ? 1 : -1;
        }

        /** Whether the pattern can start with the keyword spelled as the text spells it (probed once per spelling). */
        private boolean otherSpellingMayMatch(int g, String raw, int start) {
            String keyword = keywords[g];
            if (keyword.length() > 40 || !keyword.chars().allMatch(k -> k < ASCII)) {
                return true;
            }
            long upperCase = 0;
            for (int i = 0; i < keyword.length(); i++) {
                if (Nfkc.FOLD[raw.charAt(start + i)] != keyword.charAt(i)) {
                    upperCase |= 1L << i;
                }
            }
            long key = (long) g << 40 | upperCase;
            Boolean known = spellings.get(key);
            if (known == null) {
                known = mayContinue(patterns[g], Nfkc.Folded.fold(raw, start, start + keyword.length()));
                spellings.put(key, known);
            }
            return known;
        }
    }

    /** As {@link Table#mayMatch}, for this gate alone (tests). */
    boolean mayMatch(String raw, int start) {
        return new Table(new FollowGate[] {this}).mayMatch(0, raw, start, keyword.length());
    }

    /** Two 128-bit sets: characters that may follow the keyword, and that may follow the keyword and one space. */
    private record Follow(long first0, long first1, long space0, long space1) {

        static final Follow NONE = new Follow(0, 0, 0, 0);

        static Follow learn(Pattern pattern, String keyword) {
            long[] first = new long[2];
            long[] space = new long[2];
            for (char c = 0; c < ASCII_LIMIT; c++) {
                if (mayContinue(pattern, keyword + c)) {
                    first[c >> 6] |= 1L << c;
                }
                if (mayContinue(pattern, keyword + " " + c)) {
                    space[c >> 6] |= 1L << c;
                }
            }
            return new Follow(first[0], first[1], space[0], space[1]);
        }

        /** The characters that may follow {@code prefix}, as {@code {first0, first1}}. */
        static long[] firstOnly(Pattern pattern, String prefix) {
            long[] first = new long[2];
            for (char c = 0; c < ASCII_LIMIT; c++) {
                if (mayContinue(pattern, prefix + c)) {
                    first[c >> 6] |= 1L << c;
                }
            }
            return first;
        }

        boolean isEmpty() {
            return first0 == 0 && first1 == 0;
        }

        long[] longs() {
            return new long[] {first0, first1, space0, space1};
        }
    }

    private static final char ASCII_LIMIT = 128;
}
