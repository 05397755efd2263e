package dev.cairn.model.secret;

/**
 * A secret found in a text: which rule, and where ({@code [start, end)} in UTF-16 code units of the text as given,
 * the same indices JavaScript and Java strings use). Never carries the secret itself.
 *
 * <p>The verification hint says what was checked offline, never by calling the provider: {@code check} is
 * {@code "format"} when the match itself is the check (prefix, length, alphabet and entropy), or the name of the
 * format's own checksum ({@code "crc32"} for GitHub and npm tokens) with {@code checkPassed} telling whether the
 * token's checksum is right. A token that fails its checksum is still reported (a typo'd or truncated secret is
 * still a secret), but it is likely a made-up or altered one.
 */
public record Finding(String ruleId, String description, int start, int end, String check, boolean checkPassed) {

    /** A finding whose only check is the match (prefix, length, alphabet, entropy). */
    public Finding(String ruleId, String description, int start, int end) {
        this(ruleId, description, start, end, FormatCheck.FORMAT, true);
    }

    Finding withCheck(String check, boolean passed) {
        return new Finding(ruleId, description, start, end, check, passed);
    }
}
