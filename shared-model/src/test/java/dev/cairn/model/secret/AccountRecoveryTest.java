package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What opens an account or a lock without being called a password (rules 2026.12.06-5): recovery and backup codes, the
 * answer to a security question, a mother's maiden name, a VPN's shared secret, a combination dialled in groups, and a
 * Social Security number. A trial's session kept each of these sentences as written in its history, since only the
 * extractor's vote (at the session's end) took them for credentials.
 */
class AccountRecoveryTest {

    @Test
    void theTrialsSentences_shouldEachBeFound_andRedactedByTheirRule() {
        assertFoundAndRedacted("the safe combination is 12-34-56", "12-34-56", "prose-door-code");
        assertFoundAndRedacted("my locker combo is 17 23 5", "17 23 5", "prose-door-code");
        assertFoundAndRedacted("note: the vpn shared secret is moonbeam", "moonbeam", "prose-password-word");
        assertFoundAndRedacted(
                "my mother's maiden name is Fernsby, it's my security answer", "Fernsby", "prose-security-answer");
        assertFoundAndRedacted("the recovery code for my 2fa is 4839-2210", "4839-2210", "prose-recovery-code");
        assertFoundAndRedacted("my social security number is 078-05-1120", "078-05-1120", "prose-us-ssn");
    }

    @Test
    void otherWaysOfSayingThem_shouldBeFoundToo() {
        Map<String, String[]> cases = Map.ofEntries(
                Map.entry(
                        "backup codes: 8f3k-2m9q 7hx4-p2kd",
                        new String[] {"8f3k-2m9q 7hx4-p2kd", "prose-recovery-code"}),
                Map.entry(
                        "my recovery key is 184725-390412-551932-020147",
                        new String[] {"184725-390412-551932-020147", "prose-recovery-code"}),
                Map.entry("SSN: 219-09-9999", new String[] {"219-09-9999", "prose-us-ssn"}),
                Map.entry("her ssn is 219099999, keep it safe", new String[] {"219099999", "prose-us-ssn"}),
                Map.entry(
                        "security question answer: Springfield", new String[] {"Springfield", "prose-security-answer"}),
                Map.entry("my security answer is fluffy", new String[] {"fluffy", "prose-security-answer"}),
                Map.entry("mum's maiden name was Hartley", new String[] {"Hartley", "prose-security-answer"}),
                Map.entry("the wifi pre-shared key is bluebird", new String[] {"bluebird", "prose-password-word"}),
                Map.entry("padlock combination: 3-19-27", new String[] {"3-19-27", "prose-door-code"}));
        cases.forEach((text, expected) -> assertFoundAndRedacted(text, expected[0], expected[1]));
    }

    /** Rules 2026.12.06-6: a second trial, from the README alone, kept these in session history and memories. */
    @Test
    void theSecondTrialsSentences_shouldEachBeFound_andRedactedByTheirRule() {
        Map<String, String[]> cases = Map.ofEntries(
                Map.entry("the OTP is 482913", new String[] {"482913", "prose-one-time-code"}),
                Map.entry("Please remember that the OTP is 482913", new String[] {"482913", "prose-one-time-code"}),
                Map.entry(
                        "verification code: 661204, it expires in 5 minutes",
                        new String[] {"661204", "prose-one-time-code"}),
                Map.entry("验证码是730164", new String[] {"730164", "prose-one-time-code"}),
                Map.entry("El código de verificación es 552781", new String[] {"552781", "prose-one-time-code"}),
                Map.entry("2FA code: 482913", new String[] {"482913", "prose-one-time-code"}),
                Map.entry(
                        "The first pet question answer is Biscuit", new String[] {"Biscuit", "prose-security-answer"}),
                Map.entry("家里大门密码是8866", new String[] {"8866", "prose-password-zh-digits"}),
                Map.entry("门禁密码是8866", new String[] {"8866", "prose-password-zh-digits"}),
                Map.entry("家里的WiFi叫TP-LINK_5G，密码chaoshi888", new String[] {"chaoshi888", "prose-password-zh"}),
                Map.entry("El PIN es 3307", new String[] {"3307", "prose-pin"}),
                Map.entry("Meine PIN lautet 9012", new String[] {"9012", "prose-pin"}),
                Map.entry("the safe code is 2468", new String[] {"2468", "prose-door-code"}),
                Map.entry(
                        "My GitHub 2FA recovery codes are 7f3a9-b21c4 and 9d8e2-a1b3f",
                        new String[] {"7f3a9-b21c4 and 9d8e2-a1b3f", "prose-recovery-code"}));
        cases.forEach((text, expected) -> assertFoundAndRedacted(text, expected[0], expected[1]));
    }

    /** Rules 2026.12.06-9: a third trial's "remember that …" sentences, written at once as team memories. */
    @Test
    void theThirdTrialsSentences_shouldEachBeFound_andRedactedByTheirRule() {
        Map<String, String[]> cases = Map.ofEntries(
                Map.entry(
                        "the answer to the bank's security question is Corolla",
                        new String[] {"Corolla", "prose-security-answer"}),
                Map.entry("Der Türcode für das Büro lautet 4402", new String[] {"4402", "prose-door-code"}),
                Map.entry("Le code de la porte de l'immeuble est 8147", new String[] {"8147", "prose-door-code"}),
                Map.entry("the company card CVV is 737", new String[] {"737", "prose-card-cvv"}),
                Map.entry("Mi PIN del banco es 4490", new String[] {"4490", "prose-pin"}),
                Map.entry("Meine PIN für die EC-Karte ist 6158", new String[] {"6158", "prose-pin"}));
        cases.forEach((text, expected) -> assertFoundAndRedacted(text, expected[0], expected[1]));
        assertNoneFlagged(
                List.of("the answer to this question is 42", "the CVV is 3 digits", "the cid 1234 of the process"));
    }

    @Test
    void sentencesAboutCodesThatStateNone_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "the verification code is sent by SMS",
                "OTP: 6 digits",
                "the security code is on the back of the card",
                "2FA code: 000000",
                "the OTP is valid for 300 seconds",
                "验证码是必填项",
                "密码是8位",
                "密码长度至少12位",
                "密码是2024年改的",
                "密码学是一门学科",
                "the quiz question answer is no",
                "thread-safe code 4821",
                "the recovery code flow is in auth.ts",
                "door code reviews happen on Fridays",
                "验证码功能在 auth 模块里",
                "密码策略要求至少12位"));
    }

    @Test
    void sentencesAboutThemThatStateNone_shouldNotBeFlagged() {
        assertNoneFlagged(List.of(
                "the recovery code is printed on the card",
                "the recovery codes are stored in 1password",
                "backup codes: 10 of them, single use",
                "recovery key: 0000-0000",
                "SSN: 123-45-6789",
                "ssn : 111-22-3333",
                "social security number: 000-12-3456",
                "the SSN field is 9 digits",
                "Social Security number (SSN) is a nine-digit number",
                "the security answer is case-sensitive",
                "the security answer is required.",
                "mother's maiden name is a common security question",
                "security answer: The name of your first pet",
                "the shared secret is generated",
                "the shared secret is stored in the vault",
                "the safe combination is 3 numbers",
                "the combination lock has 3 dials 1 2 3",
                "the locker combination is 1 2"));
    }
}
