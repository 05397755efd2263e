package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.session.ExampleBank;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The held-out parts measure generalisation only if the extractor's bank has never seen their lines. */
class HeldOutCorpusTest {

    private static final Set<String> LABELS = Set.of(
            "preference",
            "convention",
            "decision",
            "environment",
            "fact",
            "skip:question",
            "skip:request",
            "skip:chatter",
            "skip:temporary",
            "skip:secret");

    @ParameterizedTest
    @ValueSource(strings = {"extraction/heldout-en.tsv", "extraction/heldout-zh.tsv", "extraction/heldout-zh-2.tsv"})
    void heldOutPart_shouldShareNoUtteranceWithTheDevelopmentBank_andUseOnlyKnownLabels(String resource)
            throws Exception {
        List<ExampleBank.Example> part = ExtractBench.load(resource);
        Set<String> bank = ExampleBank.shipped().examples().stream()
                .map(e -> e.text().strip())
                .collect(Collectors.toSet());

        assertThat(part).hasSizeGreaterThan(100);
        assertThat(part).extracting(ExampleBank.Example::label).allMatch(LABELS::contains);
        assertThat(part).extracting(e -> e.text().strip()).noneMatch(bank::contains);
        assertThat(part.stream().map(e -> e.text().strip()).distinct().count()).isEqualTo(part.size());
    }
}
