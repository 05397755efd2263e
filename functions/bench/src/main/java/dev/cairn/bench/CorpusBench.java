package dev.cairn.bench;

import dev.cairn.bench.SecretCorpus.Part;
import dev.cairn.bench.SecretCorpus.Sample;
import dev.cairn.model.secret.SecretRules;
import dev.cairn.model.secret.SecretScanner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code corpus-bench [--baseline-rules FILE] [--misses N] [--write DIR] [--real-text PATH]}: recall and false-positive rate of the
 * bundled scanner on the generated corpus ({@link SecretCorpus}), per part and per provider (per look-alike family
 * for the clean lines), beside a baseline scanner run from another rules file in the same run.
 */
final class CorpusBench {

    static final List<String> OPTIONS = List.of("--baseline-rules", "--misses", "--write", "--real-text");
    static final String USAGE = """
            usage: corpus-bench [--baseline-rules FILE] [--misses N] [--write DIR] [--real-text PATH]
            Scans the generated corpus (a development and a held-out part, secrets of every covered provider in
            prose, JSON, YAML, env, shell, tool-call, code and Chinese contexts, and hard clean look-alikes) and prints
            recall and false-positive rate per part, per provider and per look-alike family.
              --baseline-rules FILE  also run a scanner of this rules file as the baseline (default none)
              --misses N             print up to N missed and N flagged lines of the development part (default 0)
              --write DIR            write DIR/secret-corpus-dev.tsv and DIR/secret-corpus-held-out.tsv (default none)
              --real-text PATH       also scan text nobody here wrote, a directory or a file of paths (default none):
                                     every UTF-8 file up to 2 MiB; prints findings per rule (with --baseline-rules, the
                                     ones the baseline did not make), up to max(N, 20) of them in context with the value
                                     cut, and both scanners' time over that text, interleaved
            example: java -jar functions/bench/target/cairn-bench.jar corpus-bench --misses 40
            """;

    private CorpusBench() {}

    static int run(List<String> args) {
        return Options.run("corpus-bench", USAGE, OPTIONS, args, System.out, System.err, o -> {
            Path baselineRules = o.path("--baseline-rules", null);
            int misses = o.positive("--misses", 0);
            Path write = o.path("--write", null);
            Path realText = o.path("--real-text", null);
            List<Sample> corpus = SecretCorpus.generate();
            try {
                if (write != null) {
                    write(corpus, write);
                }
                SecretScanner baseline = baselineRules == null
                        ? null
                        : new SecretScanner(SecretRules.parse(Files.readString(baselineRules, StandardCharsets.UTF_8)));
                SecretScanner now = SecretScanner.bundled();
                report(corpus, now, baseline, misses, System.out);
                if (realText != null) {
                    RealTextScan.report(realText, now, baseline, Math.max(misses, 20), System.out);
                }
                return 0;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    /** Hits of one scanner on every sample, in corpus order. */
    static boolean[] hits(List<Sample> corpus, SecretScanner scanner) {
        boolean[] hit = new boolean[corpus.size()];
        for (int i = 0; i < hit.length; i++) {
            hit[i] = !scanner.scan(corpus.get(i).text()).isEmpty();
        }
        return hit;
    }

    /** Counts of one group: secrets and found, clean and flagged. */
    static final class Tally {
        int secrets;
        int found;
        int clean;
        int flagged;

        void add(Sample s, boolean hit) {
            if (s.secret()) {
                secrets++;
                found += hit ? 1 : 0;
            } else {
                clean++;
                flagged += hit ? 1 : 0;
            }
        }

        String recall() {
            return secrets == 0
                    ? "-"
                    : String.format(Locale.ROOT, "%.3f (%d/%d)", (double) found / secrets, found, secrets);
        }

        String fpr() {
            return clean == 0
                    ? "-"
                    : String.format(Locale.ROOT, "%.3f (%d/%d)", (double) flagged / clean, flagged, clean);
        }
    }

    static void report(List<Sample> corpus, SecretScanner now, SecretScanner baseline, int misses, PrintStream out) {
        boolean[] hitNow = hits(corpus, now);
        boolean[] hitBase = baseline == null ? null : hits(corpus, baseline);
        Map<Part, Tally[]> byPart = new TreeMap<>();
        Map<String, Tally[]> byKind = new TreeMap<>();
        for (int i = 0; i < corpus.size(); i++) {
            Sample s = corpus.get(i);
            Tally[] p = byPart.computeIfAbsent(s.part(), x -> new Tally[] {new Tally(), new Tally()});
            Tally[] k = byKind.computeIfAbsent(
                    (s.secret() ? "secret " : "clean  ") + s.kind() + " [" + (s.part() == Part.DEV ? "dev" : "held-out")
                            + "]",
                    x -> new Tally[] {new Tally(), new Tally()});
            p[0].add(s, hitNow[i]);
            k[0].add(s, hitNow[i]);
            if (hitBase != null) {
                p[1].add(s, hitBase[i]);
                k[1].add(s, hitBase[i]);
            }
        }
        out.printf("secret corpus (generated by SecretCorpus, %d lines)%n", corpus.size());
        out.printf(
                "%-10s %-22s %-20s%s%n",
                "part", "recall", "false-positive rate", baseline == null ? "" : "   baseline recall / FPR");
        for (Map.Entry<Part, Tally[]> e : byPart.entrySet()) {
            Tally t = e.getValue()[0];
            Tally b = e.getValue()[1];
            out.printf(
                    "%-10s %-22s %-20s%s%n",
                    e.getKey() == Part.DEV ? "dev" : "held-out",
                    t.recall(),
                    t.fpr(),
                    baseline == null ? "" : "   " + b.recall() + " / " + b.fpr());
        }
        out.println();
        out.println("per provider (secrets: recall) and per look-alike family (clean: false-positive rate):");
        for (Map.Entry<String, Tally[]> e : byKind.entrySet()) {
            Tally t = e.getValue()[0];
            Tally b = e.getValue()[1];
            boolean secret = t.secrets > 0;
            out.printf(
                    "  %-52s %-20s%s%n",
                    e.getKey(),
                    secret ? t.recall() : t.fpr(),
                    baseline == null ? "" : "  baseline " + (secret ? b.recall() : b.fpr()));
        }
        if (misses > 0) {
            List<String> missed = new ArrayList<>();
            List<String> flagged = new ArrayList<>();
            for (int i = 0; i < corpus.size(); i++) {
                Sample s = corpus.get(i);
                if (s.part() != Part.DEV) {
                    continue; // the held-out part is not looked at line by line
                }
                String line = s.kind() + " / " + s.context() + ": " + s.text().replace("\n", "\\n");
                if (s.secret() && !hitNow[i] && missed.size() < misses) {
                    missed.add(line);
                } else if (!s.secret() && hitNow[i] && flagged.size() < misses) {
                    flagged.add(line + "  -> " + now.scan(s.text()).get(0).ruleId());
                }
            }
            out.println();
            missed.forEach(m -> out.println("  missed (dev): " + m));
            flagged.forEach(f -> out.println("  flagged clean (dev): " + f));
        }
    }

    private static void write(List<Sample> corpus, Path dir) throws IOException {
        Files.createDirectories(dir);
        for (Part part : Part.values()) {
            StringBuilder b =
                    new StringBuilder("# label<TAB>kind<TAB>context<TAB>text; made by corpus-bench --write\n");
            for (Sample s : corpus) {
                if (s.part() == part) {
                    b.append(s.secret() ? '1' : '0')
                            .append('\t')
                            .append(s.kind())
                            .append('\t')
                            .append(s.context())
                            .append('\t')
                            .append(s.text().replace("\n", "\\n"))
                            .append('\n');
                }
            }
            String name = part == Part.DEV ? "secret-corpus-dev.tsv" : "secret-corpus-held-out.tsv";
            Files.writeString(dir.resolve(name), b.toString(), StandardCharsets.UTF_8);
        }
    }
}
