package dev.cairn.model.id;

import dev.cairn.model.error.NamespaceViolation;

/**
 * An identifier that may reach a storage key, an object path or an index filter: a team, a user, a session, a
 * memory, a fact, a client or a tag.
 *
 * <p>Invariant: the value matches {@code ^[a-z0-9][a-z0-9_-]{0,63}$}. Bad input is rejected with a reason, never
 * cleaned: silently lower-casing or stripping would let two different inputs address the same record, and
 * normalising confusable letters would let an attacker reach another tenant's key.
 */
public record Id(String value) implements Comparable<Id> {

    public static final int MAX_LENGTH = 64;

    public Id {
        String problem = problemWith(value);
        if (problem != null) {
            throw new NamespaceViolation("id", value, problem);
        }
    }

    /** Parses {@code raw} for the named field; the field name appears in the error a caller sees. */
    public static Id of(String field, String raw) {
        String problem = problemWith(raw);
        if (problem != null) {
            throw new NamespaceViolation(field, raw, problem);
        }
        return new Id(raw);
    }

    public static boolean isValid(String raw) {
        return problemWith(raw) == null;
    }

    /** Returns why {@code raw} is not an id, or {@code null} when it is one. */
    public static String problemWith(String raw) {
        if (raw == null) {
            return "is missing";
        }
        if (raw.isEmpty()) {
            return "is empty";
        }
        int length = raw.codePointCount(0, raw.length());
        if (length > MAX_LENGTH) {
            return "is " + length + " characters long; the most is " + MAX_LENGTH;
        }
        for (int i = 0; i < raw.length(); ) {
            int cp = raw.codePointAt(i);
            String what = describe(cp, i == 0);
            if (what != null) {
                return what;
            }
            i += Character.charCount(cp);
        }
        return null;
    }

    private static String describe(int cp, boolean first) {
        boolean lowerOrDigit = (cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9');
        if (lowerOrDigit) {
            return null;
        }
        if (cp == '_' || cp == '-') {
            return first ? "must start with a lowercase letter or digit, not '" + (char) cp + "'" : null;
        }
        if (cp == 0) {
            return "contains a NUL character";
        }
        if (cp == '/' || cp == '\\') {
            return "contains a path separator '" + (char) cp + "'";
        }
        if (cp == '.') {
            return "contains '.'; dots are not allowed (no relative paths or extensions)";
        }
        if (cp >= 'A' && cp <= 'Z') {
            return "contains the uppercase letter '" + (char) cp + "'; ids are lowercase";
        }
        if (cp > 127) {
            return String.format(
                    "contains the non-ASCII character U+%04X; only a-z, 0-9, '_' and '-' are allowed "
                            + "(look-alike letters are rejected, not converted)",
                    cp);
        }
        if (Character.isISOControl(cp)) {
            return String.format("contains the control character U+%04X", cp);
        }
        return "contains '" + (char) cp + "'; only a-z, 0-9, '_' and '-' are allowed";
    }

    @Override
    public int compareTo(Id other) {
        return value.compareTo(other.value);
    }

    @Override
    public String toString() {
        return value;
    }
}
