package dev.cairn.model.secret;

import java.util.Locale;

/** What a team wants done with a write that holds a secret. */
public enum SecretPolicy {
    /** Refuse the write: 422 with the findings (rule ids and offsets, never the secret). */
    REJECT,
    /** Store the text with each secret replaced by {@code [REDACTED:<rule_id>]} and say what was redacted. */
    REDACT;

    public static SecretPolicy parse(String value) {
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException("secret policy must be reject or redact, not '" + value + "'", e);
        }
    }
}
