package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Card numbers and IBANs after their names (rules 2026.12.06-7): the number's own check digits decide, so a number of
 * the same shape that fails them (an order number, an id, a mistyped example) gives no finding at all.
 */
class PaymentNumberTest {

    @Test
    void aCardNumberThatPassesLuhn_orAnIbanWhoseCheckDigitsHold_shouldBeFound() {
        Map<String, String[]> cases = Map.ofEntries(
                Map.entry(
                        "card number 4111 1111 1111 1111 exp 09/27",
                        new String[] {"4111 1111 1111 1111", "prose-payment-card"}),
                Map.entry("my visa is 4012888888881881", new String[] {"4012888888881881", "prose-payment-card"}),
                Map.entry("Amex: 3782 822463 10005", new String[] {"3782 822463 10005", "prose-payment-card"}),
                Map.entry(
                        "Kreditkarte 5555-5555-5555-4444", new String[] {"5555-5555-5555-4444", "prose-payment-card"}),
                Map.entry("银行卡号是6011111111111117", new String[] {"6011111111111117", "prose-payment-card"}),
                Map.entry(
                        "My IBAN is DE89 3704 0044 0532 0130 00",
                        new String[] {"DE89 3704 0044 0532 0130 00", "prose-iban"}),
                Map.entry("IBAN: GB33BUKB20201555555555", new String[] {"GB33BUKB20201555555555", "prose-iban"}));
        cases.forEach((text, expected) -> assertFoundAndRedacted(text, expected[0], expected[1]));
    }

    @Test
    void aCardWithItsSecurityCode_shouldHaveBoth_redacted() {
        String text = "card number 4111 1111 1111 1111 exp 09/27 cvv 123";
        List<Finding> found = SecretScanner.bundled().scan(text);
        assertThat(found).extracting(Finding::ruleId).containsExactly("prose-payment-card", "prose-card-cvv");
        assertThat(SecretScanner.redact(text, found)).doesNotContain("4111").doesNotContain("123");
    }

    @Test
    void numbersOfTheSameShapeThatFailTheirCheck_shouldGiveNoFinding() {
        assertNoneFlagged(List.of(
                "card number 4111 1111 1111 1112",
                "card 1234 5678 9012 3456",
                "the card number field takes 16 digits",
                "IBAN: GB34BUKB20201555555555",
                "the IBAN field is validated",
                "IBAN format XX00 0000 0000 00"));
    }

    @Test
    void theChecks_shouldFollowTheirStandards() {
        assertThat(FormatCheck.luhn("4111111111111111")).isTrue();
        assertThat(FormatCheck.luhn("4111-1111-1111-1111")).isTrue();
        assertThat(FormatCheck.luhn("4111111111111112")).isFalse();
        assertThat(FormatCheck.luhn("411111111111"))
                .as("12 digits: too short for a card")
                .isFalse();
        assertThat(FormatCheck.iban("DE89370400440532013000")).isTrue();
        assertThat(FormatCheck.iban("de89 3704 0044 0532 0130 00")).isTrue();
        assertThat(FormatCheck.iban("DE88370400440532013000")).isFalse();
        assertThat(FormatCheck.iban("DE89")).isFalse();
    }
}
