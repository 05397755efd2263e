package dev.cairn.model.secret;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * NFKC folding for the scanner, as the JDK's {@link Normalizer} defines it, applied one code point at a time.
 *
 * <p>Nearly every character NFKC changes maps to exactly one other character (full-width forms, compatibility
 * letters and punctuation). For those the scanner never builds a normalised copy of the text: {@link #FOLD} answers
 * per character and {@link Folded} shows the text folded without copying it, so offsets stay those of the original.
 * Only a text holding a character that expands (ligatures, {@code ㎏}, circled numbers), a supplementary character
 * NFKC changes (mathematical alphanumerics) or an invisible character ({@link #invisible}, dropped) takes the slow way:
 * a normalised copy with an offset map ({@link Mapped}).
 */
final class Nfkc {

    /** In {@link #FOLD}: this character's NFKC form is longer than one character. */
    static final char EXPANDS = '\uFFFF';

    /**
     * Every BMP character's NFKC form when it is one character ({@link #EXPANDS} when longer). Built once, about
     * 40 ms at start-up: 65,536 entries answer in one array read what {@code Normalizer} answers in hundreds of
     * nanoseconds, which is what lets the scanner fold while it reads.
     */
    static final char[] FOLD = buildFold();

    private static final Map<Integer, Boolean> STABLE_SUPPLEMENTARY = new ConcurrentHashMap<>();

    private Nfkc() {}

    private static char[] buildFold() {
        char[] fold = new char[Character.MAX_VALUE + 1];
        for (int c = 0; c < fold.length; c++) {
            char ch = (char) c;
            fold[c] = ch;
            if (invisible(c)) {
                fold[c] = EXPANDS; // dropped from the scanned view: only the copy with an offset map can drop it
                continue;
            }
            if (c < 0xA0 || Character.isSurrogate(ch) || knownStable(ch)) {
                continue;
            }
            String one = String.valueOf(ch);
            if (Normalizer.isNormalized(one, Normalizer.Form.NFKC)) {
                continue;
            }
            String n = Normalizer.normalize(one, Normalizer.Form.NFKC);
            fold[c] = n.length() == 1 ? n.charAt(0) : EXPANDS;
        }
        fold[EXPANDS] = EXPANDS; // a noncharacter; whatever it is, send it the slow way
        return fold;
    }

    /** Ranges that are their own NFKC form (CJK ideographs, Hangul syllables): skips most of the start-up work. */
    private static boolean knownStable(char c) {
        return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0x3400 && c <= 0x4DBF);
    }

    /**
     * Whether the supplementary code point {@code cp} is its own NFKC form and visible (emoji: yes; 𝐩𝐚𝐬𝐬 and tag
     * characters: no).
     */
    static boolean stableSupplementary(int cp) {
        return STABLE_SUPPLEMENTARY.computeIfAbsent(
                cp,
                x -> !invisible(x) && Normalizer.isNormalized(new String(Character.toChars(x)), Normalizer.Form.NFKC));
    }

    /**
     * Characters that render as nothing and can be slipped into a token to break a pattern (issue 17.5): the format
     * characters (zero-width space, joiners, soft hyphen, word joiner, byte-order mark, bidirectional controls, tag
     * characters), the combining grapheme joiner, variation selectors and the Hangul fillers. The scanned view drops
     * them; offsets still point into the original text, so a redaction covers them too.
     */
    static boolean invisible(int cp) {
        return Character.getType(cp) == Character.FORMAT
                || cp == 0x034F
                || (cp >= 0xFE00 && cp <= 0xFE0F)
                || (cp >= 0xE0100 && cp <= 0xE01EF)
                || cp == 0x115F
                || cp == 0x1160
                || cp == 0x3164
                || cp == 0xFFA0;
    }

    /** The text as NFKC folds it, one character for one, without a copy: what the rules' patterns read. */
    static final class Folded implements CharSequence {

        private final String raw;

        Folded(String raw) {
            this.raw = raw;
        }

        @Override
        public int length() {
            return raw.length();
        }

        @Override
        public char charAt(int index) {
            return FOLD[raw.charAt(index)];
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return fold(raw, start, end);
        }

        @Override
        public String toString() {
            return fold(raw, 0, raw.length());
        }

        /** {@code s[start, end)} folded (a copy only if a character changes). */
        static String fold(String s, int start, int end) {
            int i = start;
            while (i < end && FOLD[s.charAt(i)] == s.charAt(i)) {
                i++;
            }
            if (i == end) {
                return s.substring(start, end); // nothing to fold: the usual case
            }
            char[] out = new char[end - start];
            s.getChars(start, end, out, 0);
            for (int k = i - start; k < out.length; k++) {
                out[k] = FOLD[out[k]];
            }
            return new String(out);
        }
    }

    /** A normalised copy of a text with, for every normalised char, the range of the original it came from. */
    record Mapped(String text, int[] starts, int[] ends) {

        static Mapped of(String original) {
            int len = original.length();
            StringBuilder out = new StringBuilder(len + 16);
            int[] starts = new int[len + 16];
            int[] ends = new int[starts.length];
            int i = 0;
            while (i < len) {
                int cp = original.codePointAt(i);
                int next = i + Character.charCount(cp);
                char f = cp < Character.MIN_SUPPLEMENTARY_CODE_POINT ? FOLD[cp] : EXPANDS;
                String piece = f != EXPANDS
                        ? null
                        : invisible(cp) ? "" : Normalizer.normalize(original.substring(i, next), Normalizer.Form.NFKC);
                int add = piece == null ? 1 : piece.length();
                if (out.length() + add > starts.length) {
                    starts = Arrays.copyOf(starts, (starts.length + add) * 2);
                    ends = Arrays.copyOf(ends, starts.length);
                }
                for (int k = 0; k < add; k++) {
                    starts[out.length()] = i;
                    ends[out.length()] = next;
                    out.append(piece == null ? f : piece.charAt(k));
                }
                i = next;
            }
            return new Mapped(out.toString(), starts, ends);
        }

        int originalStart(int normalizedStart) {
            return starts[normalizedStart];
        }

        int originalEnd(int normalizedEnd) {
            return normalizedEnd == 0 ? 0 : ends[normalizedEnd - 1];
        }
    }
}
