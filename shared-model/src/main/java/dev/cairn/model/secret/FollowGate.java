package dev.cairn.model.secret;

import java.util.Locale;
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
 * before an operator or a verb). A pattern that fails for every probe (it needs context before the keyword, such as
 * a lookbehind or a word boundary before a non-word keyword) gets no gate. Case-sensitive patterns are probed with
 * the keyword in lower and in upper case, and the gate applies only where the text spells it exactly so.
 */
final class FollowGate {

    private final String keyword;
    private final boolean caseInsensitive;
    private final Follow lower;
    private final Follow upper;

    private FollowGate(String keyword, boolean caseInsensitive, Follow lower, Follow upper) {
        this.keyword = keyword;
        this.caseInsensitive = caseInsensitive;
        this.lower = lower;
        this.upper = upper;
    }

    /** The gate of {@code pattern} after {@code keyword} (lower case, folded), or null if nothing can be learned. */
    static FollowGate learn(Pattern pattern, String keyword) {
        boolean ci = (pattern.flags() & Pattern.CASE_INSENSITIVE) != 0 || pattern.pattern().startsWith("(?i)")
                || insideLeadingCaseInsensitiveGroup(pattern.pattern(), keyword);
        Follow lower = Follow.learn(pattern, keyword);
        Follow upper = ci ? null : Follow.learn(pattern, keyword.toUpperCase(Locale.ROOT));
        if (lower == null && upper == null) {
            return null;
        }
        return new FollowGate(keyword, ci, lower, upper);
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

    /**
     * Every gate of a scanner (one per keyword and rule) in flat arrays: a hit reads a few longs next to those of the
     * keyword's other rules, instead of chasing a gate object, its follow sets and its keyword string through the heap
     * (on 50 MB of mixed text, those cache misses cost a quarter of the keyword pass).
     */
    static final class Table {
        private static final int LONGS = 8; // lower first0, first1, space0, space1; then the same for upper case
        private static final long[] ALL = {-1L, -1L, -1L, -1L};

        private final long[] bits;
        /** 0: no gate; 1: case-insensitive (the lower-case sets); 2: as the text spells the keyword. */
        private final byte[] mode;
        private final String[] keywords;

        Table(FollowGate[] gates) {
            bits = new long[gates.length * LONGS];
            mode = new byte[gates.length];
            keywords = new String[gates.length];
            for (int g = 0; g < gates.length; g++) {
                FollowGate gate = gates[g];
                if (gate == null) {
                    continue;
                }
                mode[g] = (byte) (gate.caseInsensitive ? 1 : 2);
                keywords[g] = gate.keyword;
                System.arraycopy(gate.lower == null ? ALL : gate.lower.longs(), 0, bits, g * LONGS, 4);
                System.arraycopy(gate.upper == null ? ALL : gate.upper.longs(), 0, bits, g * LONGS + 4, 4);
            }
        }

        /** False only if the keyword of gate {@code g} at {@code start} of the (folded) text cannot start a match. */
        boolean mayMatch(int g, String raw, int start, int keywordLength) {
            int m = mode[g];
            int end = start + keywordLength;
            if (m == 0 || end >= raw.length()) {
                return true;
            }
            int base = g * LONGS;
            if (m == 2) {
                int spelled = spelledAs(keywords[g], raw, start);
                if (spelled < 0) {
                    return true;
                }
                base += spelled;
            }
            char c = Nfkc.FOLD[raw.charAt(end)];
            if (c >= 128) {
                return true;
            }
            if ((bits[base + (c >> 6)] & (1L << c)) == 0) {
                return false;
            }
            if (c == ' ' && end + 1 < raw.length()) {
                char d = Nfkc.FOLD[raw.charAt(end + 1)];
                return d >= 128 || (bits[base + 2 + (d >> 6)] & (1L << d)) != 0;
            }
            return true;
        }

        /** 0 if the text spells the keyword in lower case, 4 if in upper case (the offset of those sets), else -1. */
        private static int spelledAs(String keyword, String raw, int start) {
            boolean isLower = true;
            boolean isUpper = true;
            for (int i = 0; i < keyword.length() && (isLower || isUpper); i++) {
                char c = Nfkc.FOLD[raw.charAt(start + i)];
                char k = keyword.charAt(i);
                isLower &= c == k;
                isUpper &= c == Character.toUpperCase(k);
            }
            return isLower ? 0 : isUpper ? 4 : -1;
        }
    }

    /** As {@link Table#mayMatch}, for this gate alone (tests). */
    boolean mayMatch(String raw, int start) {
        return new Table(new FollowGate[] {this}).mayMatch(0, raw, start, keyword.length());
    }

    /** Two 128-bit sets: characters that may follow the keyword, and that may follow the keyword and one space. */
    private record Follow(long first0, long first1, long space0, long space1) {

        static Follow learn(Pattern pattern, String keyword) {
            long[] first = new long[2];
            long[] space = new long[2];
            boolean any = false;
            for (char c = 0; c < 128; c++) {
                if (mayContinue(pattern, keyword + c)) {
                    first[c >> 6] |= 1L << c;
                    any = true;
                }
                if (mayContinue(pattern, keyword + " " + c)) {
                    space[c >> 6] |= 1L << c;
                }
            }
            return any ? new Follow(first[0], first[1], space[0], space[1]) : null;
        }

        long[] longs() {
            return new long[] {first0, first1, space0, space1};
        }

        private static boolean mayContinue(Pattern pattern, String probe) {
            Matcher m = pattern.matcher(probe);
            return m.lookingAt() || m.hitEnd();
        }
    }
}
