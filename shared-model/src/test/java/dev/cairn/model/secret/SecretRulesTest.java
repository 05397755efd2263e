package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Every rule of the shipped rules file against its own examples, alone and inside the whole rule set. */
class SecretRulesTest {

    private static final SecretRules RULES = SecretRules.bundled();
    private static final SecretScanner ALL = new SecretScanner(RULES);

    @Test
    void theRulesFile_shouldHaveAVersion_andAtLeast150Rules() {
        assertThat(RULES.version()).isNotBlank();
        assertThat(RULES.rules()).hasSizeGreaterThanOrEqualTo(150);
    }

    @TestFactory
    Stream<DynamicTest> eachRule_shouldFlagItsPositives_andNotItsNegatives() {
        List<DynamicTest> tests = new ArrayList<>();
        for (SecretRule rule : RULES.rules()) {
            SecretScanner alone = SecretScanner.of(List.of(rule));
            for (String p : rule.positives()) {
                tests.add(DynamicTest.dynamicTest(rule.id() + " flags " + abbreviate(p), () -> {
                    assertThat(alone.scan(p))
                            .as("rule alone")
                            .anySatisfy(f -> assertThat(f.ruleId()).isEqualTo(rule.id()));
                    assertThat(ALL.scan(p)).as("whole rule set").isNotEmpty();
                }));
            }
            for (String n : rule.negatives()) {
                tests.add(DynamicTest.dynamicTest(
                        rule.id() + " ignores " + abbreviate(n),
                        () -> assertThat(alone.scan(n)).as("rule alone").isEmpty()));
            }
        }
        return tests.stream();
    }

    private static String abbreviate(String s) {
        String one = s.replace("\n", "⏎");
        return one.length() <= 60 ? one : one.substring(0, 57) + "...";
    }
}
