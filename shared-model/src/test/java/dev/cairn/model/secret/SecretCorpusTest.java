package dev.cairn.model.secret;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The scanner on the project's labelled corpus (tools/make_secret_corpus.py): recall on the secret lines and the
 * false-positive rate on the clean ones, printed by every test run, held to the issue's floor and ceiling.
 */
class SecretCorpusTest {

    record Line(boolean secret, String text) {}

    static List<Line> corpus() throws IOException {
        try (InputStream in = SecretCorpusTest.class.getResourceAsStream("corpus.tsv")) {
            List<Line> out = new ArrayList<>();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                int tab = line.indexOf('\t');
                out.add(new Line(line.charAt(0) == '1', line.substring(tab + 1).replace("\\n", "\n")));
            }
            return out;
        }
    }

    @Test
    void onTheLabelledCorpus_recallShouldBeAtLeast95Percent_andFalsePositivesAtMost2Percent() throws IOException {
        SecretScanner scanner = SecretScanner.bundled();
        int secrets = 0;
        int found = 0;
        int clean = 0;
        int flagged = 0;
        List<String> missed = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        for (Line l : corpus()) {
            boolean hit = !scanner.scan(l.text()).isEmpty();
            if (l.secret()) {
                secrets++;
                if (hit) {
                    found++;
                } else {
                    missed.add(l.text());
                }
            } else {
                clean++;
                if (hit) {
                    flagged++;
                    wrong.add(l.text() + " -> " + scanner.scan(l.text()).get(0).ruleId());
                }
            }
        }
        double recall = (double) found / secrets;
        double fpr = (double) flagged / clean;
        System.out.printf(
                Locale.ROOT,
                "secret corpus: recall %.4f (%d/%d), false-positive rate %.4f (%d/%d)%n",
                recall,
                found,
                secrets,
                fpr,
                flagged,
                clean);
        missed.stream().distinct().limit(20).forEach(m -> System.out.println("  missed: " + m));
        wrong.stream().distinct().limit(20).forEach(w -> System.out.println("  flagged clean: " + w));
        assertThat(recall).isGreaterThanOrEqualTo(0.95);
        assertThat(fpr).isLessThanOrEqualTo(0.02);
    }
}
