package dev.cairn.model.secret;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The checks some token formats carry in themselves, run offline on each match (the scanner never calls a provider).
 *
 * <p>{@code crc32}: GitHub's tokens ({@code ghp_}, {@code gho_}, {@code ghu_}, {@code ghs_}, {@code ghr_}) and npm's
 * ({@code npm_}) end in six base62 characters that are the CRC32 of the thirty random characters before them,
 * left-padded with zeros (GitHub's "Behind GitHub's new authentication token formats", 2021; npm's announcement of
 * its token format, 2021). A GitHub token typed with a hyphen for its underscore ({@code ghp-...}) has the same body and
 * is checked the same way.
 */
final class FormatCheck {

    /** A finding whose check is the match itself. */
    static final String FORMAT = "format";

    static final String CRC32_BASE62 = "crc32";
    static final List<String> KNOWN = List.of(CRC32_BASE62);

    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private FormatCheck() {}

    static boolean isKnown(String check) {
        return KNOWN.contains(check);
    }

    /** Whether {@code token} (as matched, NFKC-folded, invisible characters removed) passes {@code check}. */
    static boolean passes(String check, String token) {
        if (CRC32_BASE62.equals(check)) {
            return crc32Base62(token);
        }
        throw new IllegalArgumentException("unknown check " + check);
    }

    /** {@code prefix_} (or {@code prefix-}) + 30 random base62 characters + their CRC32 in 6 base62 characters. */
    static boolean crc32Base62(String token) {
        int underscore = token.indexOf('_');
        int hyphen = token.indexOf('-');
        int separator = underscore < 0 ? hyphen : hyphen < 0 ? underscore : Math.min(underscore, hyphen);
        String body = token.substring(separator + 1);
        if (body.length() != 36) {
            return false;
        }
        return checksum(body.substring(0, 30)).equals(body.substring(30));
    }

    /** The six base62 characters of the CRC32 of {@code random}. */
    static String checksum(String random) {
        CRC32 crc = new CRC32();
        crc.update(random.getBytes(StandardCharsets.US_ASCII));
        long v = crc.getValue();
        char[] out = new char[6];
        for (int i = 5; i >= 0; i--) {
            out[i] = BASE62.charAt((int) (v % 62));
            v /= 62;
        }
        return new String(out);
    }
}
