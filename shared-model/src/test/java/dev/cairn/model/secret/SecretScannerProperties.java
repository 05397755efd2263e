package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Chars;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.StringLength;

/** Laws of the scanner's shortcuts: each one must change what it costs, never what it finds. */
class SecretScannerProperties {

    private static final SecretScanner SCANNER = SecretScanner.bundled();
    private static final List<SecretRule> ANCHORED =
            SCANNER.rules().stream().filter(SecretRule::anchored).toList();
    private static final List<String> FRAGMENTS = fragments();
    private static final java.util.regex.Pattern CODE_REFERENCE = java.util.regex.Pattern.compile(
            "[A-Za-z_$][A-Za-z0-9_$]*(?:\\.[A-Za-z_$][A-Za-z0-9_$]*)+(?:[(\\[].*)?[;,]?|[A-Za-z_][A-Za-z0-9_.]*[(\\[].*");
    private static final java.util.regex.Pattern ENV_NAME =
            java.util.regex.Pattern.compile("[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+[;,]?");

    /** A follow gate only ever skips keyword occurrences the rule's pattern cannot match at. */
    @Property(tries = 3000)
    void aFollowGate_neverSkipsAnOccurrenceThePatternMatches(
            @ForAll @IntRange(min = 0, max = 10_000) int pick,
            @ForAll @IntRange(min = 0, max = 3) int casing,
            @ForAll
                    @StringLength(max = 24)
                    @Chars({
                        ' ', '=', ':', '"', '\'', '-', '_', '.', 'i', 's', 'a', 'B', 'x', '7', '\t', '\n', '@', '/',
                        'o', 'f', 'r'
                    })
                    String continuation) {
        SecretRule rule = ANCHORED.get(pick % ANCHORED.size());
        String keyword = KeywordIndex.fold(
                rule.keywords().get(pick / ANCHORED.size() % rule.keywords().size()));
        String spelled = switch (casing) {
            case 0 -> keyword;
            case 1 -> keyword.toUpperCase(Locale.ROOT);
            case 2 -> Character.toUpperCase(keyword.charAt(0)) + keyword.substring(1);
            default -> alternatingCase(keyword);
        };
        FollowGate gate = FollowGate.learn(rule.pattern(), keyword);
        String text = spelled + continuation;
        if (gate != null && !gate.mayMatch(text, 0)) {
            Matcher m = rule.pattern().matcher(text);
            assertThat(m.lookingAt()).as("%s skipped at %s", rule.id(), text).isFalse();
        }
    }

    /** The hand-run assignment walk finds exactly the match its rule's regex finds, wherever the region ends. */
    @Property(tries = 5000)
    void anAssignmentShape_matchesExactlyWhereItsRegexMatches(
            @ForAll @IntRange(min = 0, max = 10_000) int pick,
            @ForAll boolean upper,
            @ForAll @IntRange(min = 1, max = 40) int span,
            @ForAll @IntRange(min = 0, max = 5) int before,
            @ForAll("continuations") String continuation) {
        assertWalkMatchesRegex(pick, upper, span, before, continuation);
    }

    /** The same, on continuations of random characters. */
    @Property(tries = 3000)
    void anAssignmentShape_matchesExactlyWhereItsRegexMatches_onRandomCharacters(
            @ForAll @IntRange(min = 0, max = 10_000) int pick,
            @ForAll boolean upper,
            @ForAll @IntRange(min = 1, max = 40) int span,
            @ForAll @IntRange(min = 0, max = 5) int before,
            @ForAll
                    @StringLength(max = 30)
                    @Chars({
                        ' ', '=', ':', '>', '"', '\'', '`', '-', '_', '.', 'a', 'Z', '7', '\t', '\n', '(', '[', '$',
                        '/', '+', ';', 'é', 'ｘ', 'i', 's', 'W', 'A', 'k', 'e', 'y'
                    })
                    String continuation) {
        assertWalkMatchesRegex(pick, upper, span, before, continuation);
    }

    /** What follows a keyword in an assignment or a statement, piece by piece, with near misses in every piece. */
    @Provide
    Arbitrary<String> continuations() {
        Arbitrary<String> suffix = Arbitraries.of("", "", "_id", ".x", "-y", "s");
        Arbitrary<String> quote = Arbitraries.of("", "", "\"", "'", "`", "“", "‘", "“‘");
        Arbitrary<String> space = Arbitraries.of("", " ", " ", "  ", "\t", "\n");
        Arbitrary<String> operator = Arbitraries.of(
                "is",
                "IS",
                "Was",
                "=",
                ":",
                ":=",
                "=>",
                "x",
                "",
                "will be",
                "is now",
                "changed to",
                "isn't",
                "for the db",
                "of",
                "to",
                "Is",
                "is now\u0301");
        Arbitrary<String> value = Arbitraries.of(
                "Zq8mN3vX7pL2Hx7Lm2Qp9",
                "abc",
                "a.b/c+d=e-f_g12345",
                "os.environ",
                "=Zq8mN3vX7pL",
                "",
                "ｘｙｚ0123456789abcdef",
                "abc”",
                "now",
                "xyz1",
                "Tr0ub4dor&3");
        Arbitrary<String> tail = Arbitraries.of("", "(", " ok", "\"", "é", "=");
        return net.jqwik.api.Combinators.combine(List.of(suffix, quote, space, operator, space, quote, value, tail))
                .as(parts -> String.join("", parts));
    }

    private static void assertWalkMatchesRegex(int pick, boolean upper, int span, int before, String continuation) {
        List<SecretRule> shaped = SCANNER.rules().stream()
                .filter(r -> AssignmentShape.recognize(r) != null)
                .toList();
        assertThat(shaped)
                .extracting(SecretRule::id)
                .contains(
                        "generic-secret-assignment",
                        "generic-password-assignment",
                        "prose-token-en",
                        "prose-password-en");
        SecretRule rule = shaped.get(pick % shaped.size());
        String keyword =
                rule.keywords().get(pick / shaped.size() % rule.keywords().size());
        String text = List.of("x ", "x_", "é", "a", "(", "").get(before)
                + (upper ? keyword.toUpperCase(Locale.ROOT) : keyword)
                + continuation;
        int at = text.length() - keyword.length() - continuation.length();
        int limit = Math.min(text.length(), at + keyword.length() + span);
        Matcher m = rule.pattern().matcher(text);
        m.useTransparentBounds(true).useAnchoringBounds(false).region(at, limit);
        long expected = m.lookingAt() ? (long) m.start(1) << 32 | m.end(1) : -1;
        long walked = AssignmentShape.recognize(rule).match(text, at, limit);
        if (walked != AssignmentShape.ASK_THE_REGEX) {
            assertThat(walked).as("%s on %s", rule.id(), text).isEqualTo(expected);
        }
    }

    /**
     * The fast path (every character folds one for one, patterns read a folded view) finds what the general path
     * (a normalised copy with an offset map, taken when a character NFKC expands occurs) finds.
     */
    @Property(tries = 400)
    void theFoldedView_findsWhatTheNormalisedCopyFinds(@ForAll("texts") String text) {
        List<Finding> fast = SCANNER.scanFindings(text);
        List<Finding> general = SCANNER.scanCopy(text, 0);
        assertThat(general).isEqualTo(fast);
    }

    /**
     * A text inside a long one (the automaton runs four streams over four quarters, so the text may straddle a
     * quarter's boundary) is found as it is found alone, at shifted offsets.
     */
    @Property(tries = 200)
    void aTextInsideALongOne_isFoundAsAlone(
            @ForAll("texts") String text,
            @ForAll @IntRange(min = 0, max = 300) int before,
            @ForAll @IntRange(min = 0, max = 300) int after) {
        String filler = "#".repeat(27) + "\n"; // nothing a pattern can take for a secret (no entropy)
        String head = filler.repeat(before) + "\n";
        String whole = head + text + "\n\n" + filler.repeat(after);
        List<Finding> expected = new ArrayList<>();
        for (Finding f : SCANNER.scan(text)) {
            expected.add(new Finding(
                    f.ruleId(),
                    f.description(),
                    head.length() + f.start(),
                    head.length() + f.end(),
                    f.check(),
                    f.checkPassed()));
        }
        assertThat(SCANNER.scan(whole)).isEqualTo(expected);
    }

    /** The hand-written reference tests accept exactly what the regular expressions they replace accept. */
    @Property(tries = 5000)
    void referenceTests_agreeWithTheirRegularExpressions(
            @ForAll
                    @StringLength(max = 14)
                    @Chars({'a', 'Z', 'B', '0', '7', '_', '$', '.', '(', ')', '[', ';', ',', '\n', '-', ' '})
                    String s) {
        assertThat(SecretScanner.isCodeReference(s))
                .as("code reference: %s", s)
                .isEqualTo(CODE_REFERENCE.matcher(s).matches());
        assertThat(SecretScanner.isEnvName(s))
                .as("env name: %s", s)
                .isEqualTo(ENV_NAME.matcher(s).matches());
    }

    @Property(tries = 5000)
    void referenceTests_agreeWithTheirRegularExpressions_onCodeLikeTokens(@ForAll("codeLike") String s) {
        assertThat(SecretScanner.isCodeReference(s))
                .as("code reference: %s", s)
                .isEqualTo(CODE_REFERENCE.matcher(s).matches());
        assertThat(SecretScanner.isEnvName(s))
                .as("env name: %s", s)
                .isEqualTo(ENV_NAME.matcher(s).matches());
    }

    /**
     * The in-place test that rejects binary base64 runs (early exits, char-indexed tables) says what decoding the run's
     * first 16 characters and counting says: more unprintable bytes among the 12 than 5 % of the 3/4 of the run.
     */
    @Property(tries = 5000)
    void binaryPrefix_isTheCountOfUnprintableDecodedBytes(@ForAll("base64Runs") String run) {
        byte[] bytes = java.util.Base64.getDecoder()
                .decode(run.substring(0, 16).replace('-', '+').replace('_', '/'));
        int unprintable = 0;
        for (byte b : bytes) {
            unprintable += (b >= 0x20 && b < 0x7f) || b == '\n' || b == '\r' || b == '\t' ? 0 : 1;
        }
        String padded = "x " + run + " y"; // at an offset, as in a text
        assertThat(SecretScanner.binaryPrefix(padded, 2, run.length()))
                .as(run)
                .isEqualTo(unprintable * 80 > 3 * run.length());
    }

    @Provide
    Arbitrary<String> base64Runs() {
        // base64 of text (printable), of random bytes, and of a mix, both alphabets, 24 to 200 characters
        Arbitrary<byte[]> text = Arbitraries.strings()
                .withCharRange(' ', '~')
                .ofMinLength(18)
                .ofMaxLength(150)
                .map(t -> t.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        Arbitrary<byte[]> binary =
                Arbitraries.bytes().array(byte[].class).ofMinSize(18).ofMaxSize(150);
        Arbitrary<byte[]> mixed = Arbitraries.strings()
                .withCharRange(' ', '~')
                .ofMinLength(9)
                .ofMaxLength(75)
                .flatMap(t -> Arbitraries.bytes()
                        .array(byte[].class)
                        .ofMinSize(9)
                        .ofMaxSize(75)
                        .map(b -> {
                            byte[] head = t.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                            byte[] all = java.util.Arrays.copyOf(head, head.length + b.length);
                            System.arraycopy(b, 0, all, head.length, b.length);
                            return all;
                        }));
        return Arbitraries.oneOf(text, binary, mixed)
                .flatMap(b -> Arbitraries.of(true, false)
                        .map(url -> url
                                ? java.util.Base64.getUrlEncoder()
                                        .withoutPadding()
                                        .encodeToString(b)
                                : java.util.Base64.getEncoder().withoutPadding().encodeToString(b)));
    }

    @Provide
    Arbitrary<String> codeLike() {
        return Arbitraries.of(
                        "os", "environ", "API", "KEY", "_", ".", "(", ")", "[", "]", "\"X\"", ";", ",", "$x", "9",
                        "get", "\n", "-", "ab1")
                .list()
                .ofMaxSize(7)
                .map(parts -> String.join("", parts));
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.of(FRAGMENTS).list().ofMinSize(1).ofMaxSize(6).map(parts -> String.join(" ", parts));
    }

    private static String alternatingCase(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            out.append(i % 2 == 0 ? Character.toLowerCase(s.charAt(i)) : Character.toUpperCase(s.charAt(i)));
        }
        return out.toString();
    }

    /** Every rule's examples, and noise in several scripts and widths. */
    private static List<String> fragments() {
        List<String> out = new ArrayList<>();
        for (SecretRule r : SCANNER.rules()) {
            out.addAll(r.positives());
            out.addAll(r.negatives());
        }
        out.addAll(List.of(
                "the password policy requires twelve characters",
                "token usage dropped",
                "密钥，部署完成了",
                "Passwort-Richtlinie",
                "ｐａｓｓｗｏｒｄ： Ｚｑ８ｍＮ３ｖＸ７ｐＬ２",
                "記得輪換密鑰",
                "パスワードは秘密です",
                "{\"ts\":\"2026-11-30T01:10:00Z\",\"level\":\"info\"}",
                "commit 3f786850e387550fdab836ed7e6dc881de23001b",
                "😀 done",
                "redirect=https%3A%2F%2Fdeploy%3As3cr3tPassw0rd%40git.acme.dev"));
        return out;
    }
}
