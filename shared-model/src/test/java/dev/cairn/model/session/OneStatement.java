package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import java.time.Instant;
import java.util.List;

/**
 * One user statement extracted over a small hand-made bank: a bank of one or two memory types makes every vote all
 * memory, so what a test sees beyond that vote is a cue's doing.
 */
final class OneStatement {

    private final EmbeddedExtractor extractor;

    OneStatement(ExampleBank.Example... bank) {
        extractor = new EmbeddedExtractor(
                new HashingEmbedder(),
                SecretScanner.bundled(),
                new ExampleBank(List.of(bank)),
                EmbeddedExtractor.Settings.defaults());
    }

    FactExtractor.Extraction extract(String said) {
        return extractor.extract(
                List.of(new SessionMessage(new Id("m1"), 1, SessionMessage.Role.USER, said, Instant.EPOCH)));
    }

    /** The one memory {@code said} becomes. */
    FactExtractor.Fact fact(String said) {
        List<FactExtractor.Fact> facts = extract(said).facts();
        assertThat(facts).as(said).hasSize(1);
        return facts.get(0);
    }
}
