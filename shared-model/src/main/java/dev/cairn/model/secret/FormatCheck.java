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
 *
 * <p>National identity numbers, each checked as its issuer defines it, and each deciding like the two above:
 * {@code cn-id}, a Chinese resident identity number, 17 digits and a check character (ISO 7064 MOD 11-2, GB
 * 11643-1999) after a valid date of birth; {@code es-dni}, a Spanish DNI (8 digits) or NIE (X, Y or Z and 7 digits)
 * and its control letter (the number modulo 23, Real Decreto 1553/2005); {@code verhoeff}, an Indian Aadhaar number,
 * 12 digits ending in a Verhoeff check digit (UIDAI); {@code cpf}, a Brazilian CPF, 9 digits and two modulo-11 check
 * digits (Receita Federal); {@code sin}, a Canadian Social Insurance Number, 9 digits passing the Luhn check (Employment
 * and Social Development Canada).
 */
final class FormatCheck {

    /** A finding whose check is the match itself. */
    static final String FORMAT = "format";

    static final String CRC32_BASE62 = "crc32";
    static final String LUHN = "luhn";
    static final String IBAN = "iban";
    static final String CN_ID = "cn-id";
    static final String ES_DNI = "es-dni";
    static final String VERHOEFF = "verhoeff";
    static final String CPF = "cpf";
    static final String SIN = "sin";
    static final List<String> KNOWN = List.of(CRC32_BASE62, LUHN, IBAN, CN_ID, ES_DNI, VERHOEFF, CPF, SIN);

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
            case CN_ID -> chineseResidentId(token);
            case ES_DNI -> spanishDni(token);
            case VERHOEFF -> verhoeff(token);
            case CPF -> cpf(token);
            case SIN -> socialInsuranceNumber(token);
            default -> throw new IllegalArgumentException("unknown check " + check);
        };
    }

    /** Whether a failed check means no finding (the match is not of this kind), rather than a finding marked failed. */
    static boolean decides(String check) {
        return !CRC32_BASE62.equals(check);
    }

    /** 13 to 19 digits (spaces and hyphens between groups ignored) whose Luhn sum is a multiple of ten. */
    static boolean luhn(String number) {
        String digits = number.replaceAll("[ \t-]", "");
        if (digits.length() < 13 || digits.length() > 19 || !digits.chars().allMatch(Character::isDigit)) {
            return false;
        }
        return luhnHolds(digits);
    }

    /** Whether the Luhn sum of {@code digits} (ASCII digits only) is a multiple of ten. */
    private static boolean luhnHolds(String digits) {
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

    /** The digits of {@code text}, separators (spaces, hyphens, dots) left out; null if anything else is in it. */
    private static String digitsOf(String text, int length) {
        String digits = text.replaceAll("[ \t.-]", "");
        return digits.length() == length && digits.chars().allMatch(c -> c >= '0' && c <= '9') ? digits : null;
    }

    /** 17 digits holding a real date of birth at 7-14, then the MOD 11-2 check character (0-9 or X). */
    static boolean chineseResidentId(String text) {
        String id = text.replace(" ", "").toUpperCase(java.util.Locale.ROOT);
        if (id.length() != 18 || digitsOf(id.substring(0, 17), 17) == null) {
            return false;
        }
        try {
            java.time.LocalDate.parse(id.substring(6, 14), java.time.format.DateTimeFormatter.BASIC_ISO_DATE);
        } catch (java.time.format.DateTimeParseException e) {
            return false;
        }
        int[] weights = {7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2};
        int sum = 0;
        for (int i = 0; i < 17; i++) {
            sum += (id.charAt(i) - '0') * weights[i];
        }
        return "10X98765432".charAt(sum % 11) == id.charAt(17);
    }

    /**
     * 8 digits (DNI, dots between its groups ignored), or X, Y or Z and 7 digits (NIE, the letter read as 0, 1, 2),
     * then the number's letter modulo 23.
     */
    static boolean spanishDni(String text) {
        String id = text.replaceAll("[ .-]", "").toUpperCase(java.util.Locale.ROOT);
        if (id.length() != 9) {
            return false;
        }
        String number = switch (id.charAt(0)) {
            case 'X' -> "0" + id.substring(1, 8);
            case 'Y' -> "1" + id.substring(1, 8);
            case 'Z' -> "2" + id.substring(1, 8);
            default -> id.substring(0, 8);
        };
        if (digitsOf(number, 8) == null) {
            return false;
        }
        return "TRWAGMYFPDXBNJZSQVHLCKE".charAt(Integer.parseInt(number) % 23) == id.charAt(8);
    }

    private static final int[][] VERHOEFF_D = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 2, 3, 4, 0, 6, 7, 8, 9, 5}, {2, 3, 4, 0, 1, 7, 8, 9, 5, 6},
        {3, 4, 0, 1, 2, 8, 9, 5, 6, 7}, {4, 0, 1, 2, 3, 9, 5, 6, 7, 8}, {5, 9, 8, 7, 6, 0, 4, 3, 2, 1},
        {6, 5, 9, 8, 7, 1, 0, 4, 3, 2}, {7, 6, 5, 9, 8, 2, 1, 0, 4, 3}, {8, 7, 6, 5, 9, 3, 2, 1, 0, 4},
        {9, 8, 7, 6, 5, 4, 3, 2, 1, 0}
    };
    private static final int[][] VERHOEFF_P = {
        {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, {1, 5, 7, 6, 2, 8, 3, 0, 9, 4}, {5, 8, 0, 3, 7, 9, 6, 1, 4, 2},
        {8, 9, 1, 6, 0, 4, 3, 5, 2, 7}, {9, 4, 5, 3, 1, 2, 6, 8, 7, 0}, {4, 2, 8, 6, 5, 7, 3, 9, 0, 1},
        {2, 7, 9, 3, 8, 0, 6, 4, 1, 5}, {7, 0, 4, 6, 9, 1, 3, 2, 5, 8}
    };

    /** 12 digits, the first 2-9, whose Verhoeff checksum (dihedral group D5) is 0. */
    static boolean verhoeff(String text) {
        String digits = digitsOf(text, 12);
        if (digits == null || digits.charAt(0) < '2') {
            return false;
        }
        int c = 0;
        for (int i = 0; i < digits.length(); i++) {
            c = VERHOEFF_D[c][VERHOEFF_P[i % 8][digits.charAt(digits.length() - 1 - i) - '0']];
        }
        return c == 0;
    }

    /**
     * 11 digits, not all alike, whose last two are the modulo-11 check digits of the nine and ten before them. Weaker
     * than the other checks: a remainder of 10 and of 0 both give the digit 0, so some single-digit changes still pass.
     */
    static boolean cpf(String text) {
        String digits = digitsOf(text, 11);
        if (digits == null || digits.chars().distinct().count() == 1) {
            return false;
        }
        for (int k = 9; k <= 10; k++) {
            int sum = 0;
            for (int i = 0; i < k; i++) {
                sum += (digits.charAt(i) - '0') * (k + 1 - i);
            }
            if ((sum * 10) % 11 % 10 != digits.charAt(k) - '0') {
                return false;
            }
        }
        return true;
    }

    /** 9 digits, not starting with 0 or 8 (never assigned), whose Luhn sum is a multiple of ten. */
    static boolean socialInsuranceNumber(String text) {
        String digits = digitsOf(text, 9);
        return digits != null && digits.charAt(0) != '0' && digits.charAt(0) != '8' && luhnHolds(digits);
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
