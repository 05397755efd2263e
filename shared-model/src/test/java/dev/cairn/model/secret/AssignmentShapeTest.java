package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import org.junit.jupiter.api.Test;

/** The corners of the regex semantics the assignment walk must reproduce, each checked against the regex too. */
class AssignmentShapeTest {

    private static final SecretRule SECRET = rule("generic-secret-assignment");
    private static final SecretRule PASSWORD = rule("generic-password-assignment");

    @Test
    void theLookaheadAfterTheValue_readsPastTheRegionEnd() {
        String text = "password = abcdef(x)";
        int limit = text.indexOf('(');
        assertThat(walk(PASSWORD, text, 0, limit)).isEqualTo(-1L).isEqualTo(regex(PASSWORD, text, 0, limit));
    }

    @Test
    void aFailedColonEquals_fallsBackToTheColon_whoseValueThenStartsWithEquals() {
        String text = "token:=" + "a1b2c3d4e5f"; // 11 characters after ":=", 12 after ":"
        long expected = (long) 6 << 32 | text.length();
        assertThat(walk(SECRET, text, 0, text.length()))
                .isEqualTo(expected)
                .isEqualTo(regex(SECRET, text, 0, text.length()));
    }

    @Test
    void theValue_endsAtTheRegionEnd() {
        String text = "api_key = \"Zq8mN3vX7pL2Hx7Lm2Qp9\"";
        int limit = text.length() - 5;
        assertThat(walk(SECRET, text, 0, limit))
                .isEqualTo(regex(SECRET, text, 0, limit))
                .isEqualTo((long) 11 << 32 | limit);
    }

    @Test
    void aStatement_needsAWordBoundaryBefore_andAsksTheRegexAboutNonAsciiNeighbours() {
        SecretRule stated = rule("prose-token-en");
        String text = "my API key is Zq8mN3vX7pL2Hx7Lm2Qp9 ok";
        long expected = (long) text.indexOf("Zq8") << 32 | text.indexOf(" ok");
        assertThat(walk(stated, text, 3, text.length()))
                .isEqualTo(expected)
                .isEqualTo(regex(stated, text, 3, text.length()));
        assertThat(walk(stated, "xtoken is Zq8mN3vX7pL2Hx7Lm2Qp9", 1, 31)).isEqualTo(-1L);
        assertThat(walk(stated, "étoken is Zq8mN3vX7pL2Hx7Lm2Qp9", 1, 31)).isEqualTo(AssignmentShape.ASK_THE_REGEX);
    }

    @Test
    void prose_fallsBackFromAShortValueToTheNextVerb_andLeavesTheLazyClauseToTheRegex() {
        SecretRule prose = rule("prose-password-en");
        String text = "the password is now Xk93mfa8q";
        int at = text.indexOf("password");
        long expected = (long) text.indexOf("Xk93") << 32 | text.length();
        assertThat(walk(prose, text, at, text.length()))
                .isEqualTo(expected)
                .isEqualTo(regex(prose, text, at, text.length()));
        String clause = "btw my password for the staging box is JMnAzIK8jD";
        assertThat(walk(prose, clause, clause.indexOf("password"), clause.length()))
                .isEqualTo(AssignmentShape.ASK_THE_REGEX);
        String curly = "password: “‘abc";
        assertThat(walk(prose, curly, 0, curly.length()))
                .isEqualTo(regex(prose, curly, 0, curly.length()))
                .isEqualTo((long) 11 << 32 | curly.length());
    }

    @Test
    void keywordsThatEndInTheirOperator_areRecognised_andOtherShapesAreNot() {
        assertThat(PASSWORD.keywords()).contains("pass=");
        assertThat(AssignmentShape.recognize(PASSWORD)).isNotNull();
        assertThat(AssignmentShape.recognize(rule("prose-password-en"))).isNotNull();
        assertThat(AssignmentShape.recognize(rule("prose-password-de"))).isNull();
        assertThat(AssignmentShape.recognize(rule("github-pat"))).isNull();
    }

    private static long walk(SecretRule rule, String text, int at, int limit) {
        return AssignmentShape.recognize(rule).match(text, at, limit);
    }

    private static long regex(SecretRule rule, String text, int at, int limit) {
        Matcher m = rule.pattern().matcher(text);
        m.useTransparentBounds(true).useAnchoringBounds(false).region(at, limit);
        return m.lookingAt() ? (long) m.start(1) << 32 | m.end(1) : -1;
    }

    private static SecretRule rule(String id) {
        return SecretScanner.bundled().rules().stream()
                .filter(r -> r.id().equals(id))
                .findFirst()
                .orElseThrow();
    }
}
