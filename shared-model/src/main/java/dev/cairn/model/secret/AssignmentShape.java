package dev.cairn.model.secret;

import java.util.regex.Pattern;

/**
 * A hand-run matcher for the two pattern shapes the generic assignment and statement rules share, used in place of
 * their regex:
 * <pre>
 * (?i:KEYWORDS)[\w.-]*+["\']?+\s*+(?::=|=>|=|:)\s*+  [QUOTES]?+([VALUE]{MIN,})          assignment
 * \b(?i:KEYWORDS)\s++(?i:OPERATORS)\s*+               [QUOTES]?+([VALUE]{MIN,}+)(?!\()   statement
 * </pre>
 * (either head with either tail; the value possessive or not, the lookahead only after a possessive value).
 *
 * <p>Why: these rules fire on every {@code token = ...}, {@code password: ...} and {@code apiKey = ...} in code and
 * configuration, tens of thousands of times per 50 MB, and nearly every match is a reference
 * ({@code request.getHeader(...)}, {@code os.environ[...]}) that the scanner then rejects. With about 150 patterns
 * in one process, {@code java.util.regex} cannot inline its node-to-node calls, and one such attempt costs 0.3 to 1 µs;
 * walking the same shape by hand costs a few nanoseconds per character. The rule's pattern stays its definition:
 * the shape is recognised from the pattern's text, character classes are decided by the pattern's own classes, and a
 * property test holds every recognised rule to its regex.
 *
 * <p>The walk is the regex's, step by step: the possessive parts never give back; the operator alternatives are tried
 * in order, the next one only if the rest fails after the previous; a greedy value that ends the pattern is the
 * longest run; the lookahead may read past the region, as the scanner's transparent bounds let the regex do.
 */
final class AssignmentShape {

    /** {@link #match}: the walk cannot decide here (a non-ASCII character before a word boundary); run the regex. */
    static final long ASK_THE_REGEX = -2;

    private static final String KEY_TO_OPERATOR = "[\\w.-]*+[\"\\']?+\\s*+(?::=|=>|=|:)\\s*+";
    private static final String STATEMENT_HEAD = "\\b(?i:";
    private static final String[] ASSIGNMENT_OPERATORS = {":=", "=>", "=", ":"};

    private static final String PROSE_HEAD = "(?i)\\b(?:";
    private static final String PROSE_CLAUSE_START = "(?:\\s+(?:";
    private static final String PROSE_CLAUSE_END = ")(?:\\s+[^\\s]{1,30}){1,4}?)?\\s*(?:";

    /** Statement and prose heads: the keyword alternatives, tried in order; null for the assignment head. */
    private final String[] statedKeywords;
    /** Prose head: the words that open the optional "for the staging box" clause; null for the other heads. */
    private final String[] clauseWords;
    /** Operators, or for the prose head verbs: a symbol, or words between word boundaries. */
    private final String[] operators;

    private final CharClass quotes;
    /** The opening quote is optional but not possessive: the value may start at it if it must. */
    private final boolean quoteGivesBack;

    private final CharClass value;
    private final int min;
    private final boolean notBeforeParen;

    @SuppressWarnings("checkstyle:ParameterNumber")
    private AssignmentShape(
            String[] statedKeywords,
            String[] clauseWords,
            String[] operators,
            CharClass quotes,
            boolean quoteGivesBack,
            CharClass value,
            int min,
            boolean notBeforeParen) {
        this.statedKeywords = statedKeywords;
        this.clauseWords = clauseWords;
        this.operators = operators;
        this.quotes = quotes;
        this.quoteGivesBack = quoteGivesBack;
        this.value = value;
        this.min = min;
        this.notBeforeParen = notBeforeParen;
    }

    /**
     * The shape of {@code rule}, or null if its pattern is not exactly of the shape, or one of its keywords does not
     * begin with a match of the pattern's keyword alternation (then the walk could not assume a match starts there).
     */
    static AssignmentShape recognize(SecretRule rule) {
        if (!rule.anchored() || rule.group() != 1) {
            return null;
        }
        String p = rule.pattern().pattern();
        String[] stated = null;
        String[] clause = null;
        String[] operators;
        String rest;
        String classFlags = "";
        if (p.startsWith(PROSE_HEAD)) {
            int close = p.indexOf(')', PROSE_HEAD.length());
            stated = close < 0 ? null : literalAlternatives(p.substring(PROSE_HEAD.length(), close));
            if (stated == null || !p.startsWith(PROSE_CLAUSE_START, close + 1)) {
                return null;
            }
            int clauseStart = close + 1 + PROSE_CLAUSE_START.length();
            int clauseClose = p.indexOf(')', clauseStart);
            clause = clauseClose < 0 ? null : literalAlternatives(p.substring(clauseStart, clauseClose));
            if (clause == null || !p.startsWith(PROSE_CLAUSE_END, clauseClose)) {
                return null;
            }
            int verbsStart = clauseClose + PROSE_CLAUSE_END.length();
            int verbsClose = p.indexOf(")\\s*", verbsStart);
            operators = verbsClose < 0 ? null : verbs(p.substring(verbsStart, verbsClose));
            if (operators == null) {
                return null;
            }
            rest = p.substring(verbsClose + 4);
            classFlags = "(?i)";
        } else if (p.startsWith("(?i:")) {
            int close = p.indexOf(')');
            String keywords = p.substring(4, Math.max(4, close));
            if (close < 0 || !keyRunStartsWithAnAlternative(rule, keywords)) {
                return null;
            }
            rest = p.substring(close + 1);
            if (!rest.startsWith(KEY_TO_OPERATOR)) {
                return null;
            }
            rest = rest.substring(KEY_TO_OPERATOR.length());
            operators = ASSIGNMENT_OPERATORS;
        } else if (p.startsWith(STATEMENT_HEAD)) {
            int close = p.indexOf(')');
            stated = close < 0 ? null : literalAlternatives(p.substring(STATEMENT_HEAD.length(), close));
            String opsStart = "\\s++(?i:";
            if (stated == null || !p.startsWith(opsStart, close + 1)) {
                return null;
            }
            int opsClose = p.indexOf(')', close + 1 + opsStart.length());
            operators = opsClose < 0 ? null : literalAlternatives(p.substring(close + 1 + opsStart.length(), opsClose));
            rest = opsClose < 0 ? "" : p.substring(opsClose + 1);
            if (operators == null || !rest.startsWith("\\s*+")) {
                return null;
            }
            rest = rest.substring(4);
        } else {
            return null;
        }
        int quotesEnd = classEnd(rest);
        boolean givesBack = clause != null; // the prose head's tail is \s*[QUOTES]?( ; the others' [QUOTES]?+(
        if (quotesEnd < 0 || !rest.startsWith(givesBack ? "?(" : "?+(", quotesEnd)) {
            return null;
        }
        CharClass quotes = new CharClass(classFlags + rest.substring(0, quotesEnd));
        rest = rest.substring(quotesEnd + (givesBack ? 2 : 3));
        int valueEnd = classEnd(rest);
        if (valueEnd < 0 || valueEnd >= rest.length() || rest.charAt(valueEnd) != '{') {
            return null;
        }
        CharClass value = new CharClass(classFlags + rest.substring(0, valueEnd));
        int comma = rest.indexOf(",}", valueEnd);
        if (comma < 0) {
            return null;
        }
        int min;
        try {
            min = Integer.parseInt(rest.substring(valueEnd + 1, comma));
        } catch (NumberFormatException e) {
            return null;
        }
        String tail = rest.substring(comma + 2);
        if (givesBack) {
            return tail.equals(")")
                    ? new AssignmentShape(stated, clause, operators, quotes, true, value, min, false)
                    : null;
        }
        return switch (tail) {
            case ")", "+)" -> new AssignmentShape(stated, null, operators, quotes, false, value, min, false);
            case "+)(?!\\()" -> new AssignmentShape(stated, null, operators, quotes, false, value, min, true);
            default -> null;
        };
    }

    /**
     * Where a keyword occurs, the text's run of key characters starts with the keyword's own key characters (all of
     * it, or up to its first other character, where the run then ends): if an alternative matches at their start, the
     * possessive run takes the rest whichever alternative it was, and the walk need not try them.
     */
    private static boolean keyRunStartsWithAnAlternative(SecretRule rule, String keywords) {
        if (keywords.contains("(") || keywords.contains("[") || keywords.contains("\\")) {
            return false;
        }
        Pattern alternation = Pattern.compile("(?i:" + keywords + ")");
        for (String k : rule.keywords()) {
            String word = KeywordIndex.fold(k);
            int keyChars = 0;
            while (keyChars < word.length() && isKeyChar(word.charAt(keyChars))) {
                keyChars++;
            }
            if (keyChars == 0
                    || !alternation.matcher(word.substring(0, keyChars)).lookingAt()) {
                return false;
            }
        }
        return true;
    }

    /** {@code \bis\b|=|:|\bwill be\b}: words between word boundaries (kept as the words) or one symbol; else null. */
    private static String[] verbs(String alternation) {
        String[] verbs = alternation.split("\\|", -1);
        for (int i = 0; i < verbs.length; i++) {
            String v = verbs[i];
            if (v.equals("=") || v.equals(":")) {
                continue;
            }
            if (!v.startsWith("\\b") || !v.endsWith("\\b") || v.length() < 5) {
                return null;
            }
            verbs[i] = v.substring(2, v.length() - 2);
            if (!verbs[i].chars().allMatch(c -> (c >= 'a' && c <= 'z') || c == ' ')) {
                return null;
            }
        }
        return verbs;
    }

    /** {@code a|b c|=}: alternatives of ASCII letters, spaces, {@code =} and {@code :} only; else null. */
    private static String[] literalAlternatives(String alternation) {
        String[] alternatives = alternation.split("\\|", -1);
        for (String a : alternatives) {
            if (a.isEmpty() || !a.chars().allMatch(c -> (c >= 'a' && c <= 'z') || c == ' ' || c == '=' || c == ':')) {
                return null;
            }
        }
        return alternatives;
    }

    /**
     * The match at keyword start {@code at}, the pattern confined to {@code [at, limit)}: -1 if none, else the
     * captured secret's start and end ({@code start << 32 | end}); the match ends where the secret ends.
     */
    long match(CharSequence text, int at, int limit) {
        if (statedKeywords == null) {
            return assignment(text, at, limit);
        }
        return clauseWords == null ? statement(text, at, limit) : prose(text, at, limit);
    }

    /**
     * The prose head, {@code (?i)\b(?:KEYWORDS)(?:\s+(?:CLAUSE)(?:\s+[^\s]{1,30}){1,4}?)?\s*(?:VERBS)\s*}: walked
     * only where the optional clause cannot start (no clause word after the keyword's spaces), which is nearly
     * everywhere; where it can, the lazy clause backtracks into its words, and the regex runs.
     */
    private long prose(CharSequence text, int at, int limit) {
        long boundary = boundaryBefore(text, at);
        if (boundary != 0) {
            return boundary;
        }
        for (String keyword : statedKeywords) {
            if (at + keyword.length() > limit || !startsWithIgnoreCase(text, at, keyword)) {
                continue;
            }
            int j = at + keyword.length();
            int k = skipSpaces(text, j, limit);
            if (k > j) {
                for (String word : clauseWords) {
                    if (k + word.length() <= limit && startsWithIgnoreCase(text, k, word)) {
                        return ASK_THE_REGEX;
                    }
                }
            }
            for (String verb : operators) {
                int end = k + verb.length();
                if (end > limit || !startsWithIgnoreCase(text, k, verb)) {
                    continue;
                }
                if (verb.length() > 1) { // a word: \b on both sides; before it, a space or the keyword's last letter
                    if (k == j) {
                        continue;
                    }
                    if (end < text.length()) {
                        char after = text.charAt(end);
                        if (after >= 128) {
                            return ASK_THE_REGEX;
                        }
                        if (isWordChar(after)) {
                            continue;
                        }
                    }
                }
                long found = value(text, end, limit);
                if (found >= 0) {
                    return found;
                }
            }
        }
        return -1;
    }

    /** 0 if {@code \b} holds before the letter at {@code at}, -1 if not, {@link #ASK_THE_REGEX} if non-ASCII decides. */
    private static long boundaryBefore(CharSequence text, int at) {
        if (at == 0) {
            return 0;
        }
        char before = text.charAt(at - 1);
        if (before >= 128) {
            return ASK_THE_REGEX; // \b by Unicode letters, digits and combining marks: the regex knows
        }
        return isWordChar(before) ? -1 : 0;
    }

    private long assignment(CharSequence text, int at, int limit) {
        int i = at;
        while (i < limit && isKeyChar(text.charAt(i))) {
            i++;
        }
        if (i < limit && (text.charAt(i) == '"' || text.charAt(i) == '\'')) {
            i++;
        }
        return operatorThenValue(text, skipSpaces(text, i, limit), limit);
    }

    private long statement(CharSequence text, int at, int limit) {
        long boundary = boundaryBefore(text, at);
        if (boundary != 0) {
            return boundary; // the keywords start with a letter: no boundary after a word character
        }
        for (String keyword : statedKeywords) {
            if (at + keyword.length() > limit || !startsWithIgnoreCase(text, at, keyword)) {
                continue;
            }
            int spaces = at + keyword.length();
            int i = skipSpaces(text, spaces, limit);
            if (i == spaces) {
                continue; // \s++ needs one at least
            }
            long found = operatorThenValue(text, i, limit);
            if (found >= 0) {
                return found;
            }
        }
        return -1;
    }

    private long operatorThenValue(CharSequence text, int i, int limit) {
        for (String op : operators) {
            if (i + op.length() > limit || !startsWithIgnoreCase(text, i, op)) {
                continue;
            }
            long found = value(text, i + op.length(), limit);
            if (found >= 0) {
                return found;
            }
        }
        return -1;
    }

    private long value(CharSequence text, int from, int limit) {
        int j = skipSpaces(text, from, limit);
        if (j < limit && quotes.contains(text.charAt(j))) {
            long after = run(text, j + 1, limit);
            if (after >= 0 || !quoteGivesBack) {
                return after;
            }
        }
        return run(text, j, limit);
    }

    /** The value: the longest run of value characters from {@code start}, if long enough. */
    private long run(CharSequence text, int start, int limit) {
        int j = start;
        while (j < limit && value.contains(text.charAt(j))) {
            j++;
        }
        if (j - start < min) {
            return -1;
        }
        if (notBeforeParen && j < text.length() && text.charAt(j) == '(') {
            return -1;
        }
        return (long) start << 32 | j;
    }

    /** As {@code (?i:literal)} compares: ASCII letters in either case, everything else exactly. */
    private static boolean startsWithIgnoreCase(CharSequence text, int at, String literal) {
        for (int k = 0; k < literal.length(); k++) {
            char t = text.charAt(at + k);
            char l = literal.charAt(k);
            if (t != l && !(l >= 'a' && l <= 'z' && t == l - 32)) {
                return false;
            }
        }
        return true;
    }

    /** A word character of {@code \b} for ASCII: letters, digits, underscore. */
    private static boolean isWordChar(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    }

    /** {@code [\w.-]}: ASCII letters, digits, underscore, dot, hyphen. */
    private static boolean isKeyChar(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '_'
                || c == '.'
                || c == '-';
    }

    /** Past the {@code \s} characters from {@code i} (possessively, as every {@code \s*}/{@code \s+} here is). */
    private static int skipSpaces(CharSequence text, int i, int limit) {
        int j = i;
        while (j < limit && isSpace(text.charAt(j))) {
            j++;
        }
        return j;
    }

    /** {@code \s} as {@code java.util.regex} reads it without UNICODE_CHARACTER_CLASS. */
    private static boolean isSpace(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == 0x0B || c == '\f' || c == '\r';
    }

    /** Where the character class at the start of {@code s} ends (after its {@code ]}), or -1. */
    private static int classEnd(String s) {
        if (!s.startsWith("[")) {
            return -1;
        }
        for (int i = 1; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\') {
                i++;
            } else if (c == '[') {
                return -1; // nested classes: not this shape
            } else if (c == ']' && i > 1) {
                return i + 1;
            }
        }
        return -1;
    }

    /** A regex character class, decided by the regex itself: a table for ASCII, remembered answers beyond. */
    private static final class CharClass {
        private final Pattern pattern;
        private final boolean[] ascii = new boolean[128];
        /** 0 = not asked yet, 1 = no, 2 = yes (benign races: every thread computes the same answer). */
        private final byte[] wide = new byte[Character.MAX_VALUE + 1];

        CharClass(String regex) {
            this.pattern = Pattern.compile(regex);
            for (char c = 0; c < 128; c++) {
                ascii[c] = pattern.matcher(String.valueOf(c)).matches();
            }
        }

        boolean contains(char c) {
            if (c < 128) {
                return ascii[c];
            }
            byte known = wide[c];
            if (known == 0) {
                known = (byte) (pattern.matcher(String.valueOf(c)).matches() ? 2 : 1);
                wide[c] = known;
            }
            return known == 2;
        }
    }
}
