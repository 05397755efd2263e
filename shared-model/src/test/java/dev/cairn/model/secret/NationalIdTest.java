package dev.cairn.model.secret;

import static dev.cairn.model.secret.ProsePasswordTest.assertFoundAndRedacted;
import static dev.cairn.model.secret.ProsePasswordTest.assertNoneFlagged;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * National identity numbers after their names (rules 2026.12.07-2): Chinese resident ID, Spanish DNI/NIE, UK National
 * Insurance number, Indian Aadhaar, Brazilian CPF, Canadian SIN. A user tells an assistant these ("my 身份证号 is …" to
 * fill a form), and a memory service has no reason to keep them. Each number's own check decides, so a number of the
 * same shape that fails it (an order number, a typo) gives no finding.
 */
class NationalIdTest {

    @Test
    void aNamedNationalIdWhoseCheckHolds_shouldBeFound_andRedacted() {
        Map<String, String[]> cases = Map.ofEntries(
                Map.entry("我的身份证号是11010519491231002X，帮我填一下表", new String[] {"11010519491231002X", "prose-cn-resident-id"
                }),
                Map.entry("身份证号码：440524188001010014", new String[] {"440524188001010014", "prose-cn-resident-id"}),
                Map.entry("公民身份号码 310115 19870615 1230", new String[] {"310115 19870615 1230", "prose-cn-resident-id"}),
                Map.entry("Para el formulario: mi DNI es 12345678Z.", new String[] {"12345678Z", "prose-es-dni"}),
                Map.entry("NIE: X1234567L", new String[] {"X1234567L", "prose-es-dni"}),
                Map.entry(
                        "my National Insurance number is AB 12 34 56 C, for the payroll form",
                        new String[] {"AB 12 34 56 C", "prose-uk-nino"}),
                Map.entry("NINO: JG103759A", new String[] {"JG103759A", "prose-uk-nino"}),
                Map.entry("my Aadhaar number is 4993 1562 7182", new String[] {"4993 1562 7182", "prose-in-aadhaar"}),
                Map.entry("meu CPF é 529.982.247-25", new String[] {"529.982.247-25", "prose-br-cpf"}),
                Map.entry("my social insurance number is 527-000-004", new String[] {"527-000-004", "prose-ca-sin"}));
        cases.forEach((text, expected) -> assertFoundAndRedacted(text, expected[0], expected[1]));
    }

    @Test
    void numbersOfTheSameShapeThatFailTheirCheck_orTalkAboutIds_shouldGiveNoFinding() {
        assertNoneFlagged(List.of(
                "身份证号是110105194912310021",
                "身份证号 110105194913310028", // no 13th month
                "身份证号码是18位，最后一位可能是X",
                "请上传身份证正反面照片",
                "mi DNI es 12345678A",
                "el DNI tiene 8 cifras y una letra",
                "Er kommt nie 12345678Z", // German "never", not the NIE
                "my National Insurance number is QQ 12 34 56 C", // HMRC's example, never issued
                "National Insurance number is required for payroll",
                "my Aadhaar is 2341 2341 2347",
                "Aadhaar numbers have 12 digits",
                "meu CPF é 529.982.247-26",
                "CPF: 111.111.111-11",
                "my social insurance number is 046 454 286", // ESDC's example, never issued
                "my social insurance number is 527 000 005",
                "order 11010519491231002X shipped")); // no name before it
    }

    /**
     * Four checks catch any change of one digit of a valid number: MOD 11-2, the DNI's letter modulo 23, Verhoeff and
     * Luhn all detect every single-digit substitution, so a mistyped or made-up neighbour of a real number is never
     * taken for one. The CPF's is left out: its two digits map a remainder of 10 to 0, so some neighbours pass (a
     * reviewer's brute force found 44363575204 → 54363575204).
     */
    @Property(tries = 400)
    void changingOneDigitOfAValidNumber_shouldFailItsCheck(@ForAll("oneDigitChanged") String[] checkAndNumber) {
        assertThat(FormatCheck.passes(checkAndNumber[0], checkAndNumber[1]))
                .as("%s %s", checkAndNumber[0], checkAndNumber[1])
                .isFalse();
    }

    /** Numbers that pass their check, from the issuers' documented examples or computed by hand from their rules. */
    private static final List<String[]> VALID = List.of(
            new String[] {FormatCheck.CN_ID, "11010519491231002X"},
            new String[] {FormatCheck.CN_ID, "440524188001010014"},
            new String[] {FormatCheck.CN_ID, "310115198706151230"},
            new String[] {FormatCheck.ES_DNI, "12345678Z"},
            new String[] {FormatCheck.ES_DNI, "X1234567L"},
            new String[] {FormatCheck.VERHOEFF, "234123412346"},
            new String[] {FormatCheck.VERHOEFF, "499315627182"},
            new String[] {FormatCheck.SIN, "527000004"},
            new String[] {FormatCheck.SIN, "130692544"});

    @Test
    void theValidNumbers_shouldPassTheirChecks() {
        assertThat(FormatCheck.cpf("52998224725")).isTrue();
        assertThat(FormatCheck.cpf("44363575204")).isTrue();
        assertThat(FormatCheck.cpf("54363575204"))
                .as("the CPF check's known blind spot")
                .isTrue();
        for (String[] v : VALID) {
            assertThat(FormatCheck.passes(v[0], v[1])).as("%s %s", v[0], v[1]).isTrue();
            assertThat(FormatCheck.decides(v[0])).isTrue();
        }
    }

    @Provide
    Arbitrary<String[]> oneDigitChanged() {
        return Combinators.combine(
                        Arbitraries.of(VALID),
                        Arbitraries.integers().between(0, 17),
                        Arbitraries.integers().between(1, 9))
                .as((valid, position, delta) -> {
                    String number = valid[1];
                    int[] digitPositions = java.util.stream.IntStream.range(0, number.length())
                            .filter(i -> Character.isDigit(number.charAt(i)))
                            .toArray();
                    int at = digitPositions[position % digitPositions.length];
                    char changed = (char) ('0' + (number.charAt(at) - '0' + delta) % 10);
                    return new String[] {valid[0], number.substring(0, at) + changed + number.substring(at + 1)};
                });
    }
}
