package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The form vector of any statement is a unit vector of fixed length, and it does not depend on the topic: replacing
 * the content words (lower-case words outside the kept frame vocabulary) changes nothing.
 */
class FormFeaturesProperties {

    @Provide
    Arbitrary<String> statements() {
        return Arbitraries.strings()
                .withChars("abcdefghijklmnopqrstuvwxyzABC0123456789 ,.'我们必须用的了是在")
                .ofMaxLength(120);
    }

    @Provide
    Arbitrary<String> contentWords() {
        // "zq…" words are in no vocabulary, so they are always masked
        return Arbitraries.strings()
                .withCharRange('a', 'z')
                .ofMinLength(1)
                .ofMaxLength(8)
                .map(s -> "zq" + s);
    }

    @Property
    void vector_shouldHaveUnitLengthAndTheFixedDimension(@ForAll("statements") String text) {
        float[] v = FormFeatures.vector(text);

        assertThat(v).hasSize(FormFeatures.DIMENSIONS);
        double norm = 0;
        for (float x : v) {
            assertThat(x).isNotNaN();
            norm += x * x;
        }
        assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-4));
    }

    @Property
    void vector_shouldNotChange_whenOneContentWordIsReplacedByAnother(
            @ForAll("contentWords") String topic, @ForAll("contentWords") String otherTopic) {
        String frame = "we always %s the %s before every release.";

        float[] a = FormFeatures.vector(frame.formatted(topic, topic));
        float[] b = FormFeatures.vector(frame.formatted(otherTopic, otherTopic));

        assertThat(a).containsExactly(b);
    }
}
