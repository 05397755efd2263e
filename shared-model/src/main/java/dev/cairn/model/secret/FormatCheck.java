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
 *
 * <p>{@code luhn}: payment card numbers end in a Luhn check digit (ISO/IEC 7812-1), 13 to 19 digits in all.
 * {@code iban}: an IBAN's two check digits make the whole, rearranged to digits, 1 modulo 97 (ISO 13616-1). Unlike a
 * token's CRC32, which marks a finding whose check failed (a mistyped token is still a secret), these two decide
 * whether there is a finding at all ({@link #decides}): a number that fails them is some other number.
 */
final class FormatCheck {

    /** A finding whose check is the match itself. */
    static final String FORMAT = "format";

    static final String CRC32_BASE62 = "crc32";
    static final String LUHN = "luhn";
    static final String IBAN = "iban";
    static final List<String> KNOWN = List.of(CRC32_BASE62, LUHN, IBAN);

    private static final String BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

    private FormatCheck() {}

    static boolean isKnown(String check) {
        return KNOWN.contains(check);
    }

    /** Whether {@code token} (as matched, NFKC-folded, invisible characters removed) passes {@code check}. */
    static boolean passes(String check, String token) {
        return switch (check) {
            case CRC32_BASE62 -> crc32Base62(token);
            case LUHN -> luhn(token);
            case IBAN -> iban(token);
            default -> throw new IllegalArgumentException("unknown check " + check);
        };
    }

    /** Whether a failed check means no finding (the match is not of this kind), rather than a finding marked failed. */
    static boolean decides(String check) {
        return LUHN.equals(check) || IBAN.equals(check);
    }

    /** 13 to 19 digits (spaces and hyphens between groups ignored) whose Luhn sum is a multiple of ten. */
    static boolean luhn(String number) {
        String digits = number.replaceAll("[ \t-]", "");
        if (digits.length() < 13 || digits.length() > 19 || !digits.chars().allMatch(Character::isDigit)) {
            return false;
        }
        int sum = 0;
        for (int i = 0; i < digits.length(); i++) {
            int d = digits.charAt(digits.length() - 1 - i) - '0';
            if (i % 2 == 1) {
                d = d * 2 > 9 ? d * 2 - 9 : d * 2;
            }
            sum += d;
        }
        return sum % 10 == 0;
    }

    /** Country letters, two check digits, up to 30 letters or digits (spaces ignored), 1 modulo 97 once rearranged. */
    static boolean iban(String text) {
        String iban = text.replace(" ", "").toUpperCase(java.util.Locale.ROOT);
        if (iban.length() < 15 || iban.length() > 34 || !iban.matches("[A-Z]{2}\\d{2}[A-Z0-9]+")) {
            return false;
        }
        String rearranged = iban.substring(4) + iban.substring(0, 4);
        int remainder = 0;
        for (int i = 0; i < rearranged.length(); i++) {
            int v = Character.digit(rearranged.charAt(i), 36);
            remainder = (v > 9 ? remainder * 100 + v : remainder * 10 + v) % 97;
        }
        return remainder == 1;
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
