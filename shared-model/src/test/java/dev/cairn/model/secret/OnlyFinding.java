package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

/** Test helper: the scanner finds exactly one secret in a text, and it spans exactly the expected characters. */
final class OnlyFinding {

    private OnlyFinding() {}

    static Finding in(SecretScanner scanner, String text, String secret) {
        List<Finding> found = scanner.scan(text);
        assertThat(found).as(text).hasSize(1);
        Finding f = found.get(0);
        assertThat(text.substring(f.start(), f.end())).as(text).isEqualTo(secret);
        return f;
    }
}
