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
     * False only if the occurrence of the keyword at {@code start} of the (folded) text cannot start a match.
     */
    boolean mayMatch(String raw, int start) {
        int end = start + keyword.length();
        if (end >= raw.length()) {
            return true;
        }
        Follow follow = caseInsensitive ? lower : spelledAs(raw, start);
        if (follow == null) {
            return true;
        }
        char c = Nfkc.FOLD[raw.charAt(end)];
        if (c >= 128) {
            return true;
        }
        if (!follow.first(c)) {
            return false;
        }
        if (c == ' ' && end + 1 < raw.length()) {
            char d = Nfkc.FOLD[raw.charAt(end + 1)];
            return d >= 128 || follow.afterSpace(d);
        }
        return true;
    }

    /** The follow set for the keyword as the text spells it, if it is spelled all lower or all upper case. */
    private Follow spelledAs(String raw, int start) {
        boolean isLower = true;
        boolean isUpper = true;
        for (int i = 0; i < keyword.length() && (isLower || isUpper); i++) {
            char c = Nfkc.FOLD[raw.charAt(start + i)];
            char k = keyword.charAt(i);
            isLower &= c == k;
            isUpper &= c == Character.toUpperCase(k);
        }
        return isLower ? lower : isUpper ? upper : null;
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

        private static boolean mayContinue(Pattern pattern, String probe) {
            Matcher m = pattern.matcher(probe);
            return m.lookingAt() || m.hitEnd();
        }

        boolean first(char c) {
            return ((c < 64 ? first0 : first1) & (1L << c)) != 0;
        }

        boolean afterSpace(char c) {
            return ((c < 64 ? space0 : space1) & (1L << c)) != 0;
        }
    }
}
