package dev.cairn.bench;

import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretScanner;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * {@code corpus-bench --real-text PATH}: the scanner on text nobody here wrote (documentation, source trees, the
 * shared datasets). Such text holds next to no real credentials, so every finding is a probable false positive to
 * read, and a rule change shows up as the findings the baseline rules did not make. Also times both scanners on the
 * same text, interleaved, so the cost of a rule change is a ratio of one run.
 *
 * <p>PATH is a directory (every regular file under it of at most {@value #MAX_FILE_BYTES} bytes that decodes as
 * UTF-8) or a file listing such paths, one per line. Each printed finding shows its context with the matched value
 * cut to its first four characters, so a real secret met on the way is not printed whole.
 */
final class RealTextScan {

    static final int MAX_FILE_BYTES = 2 * 1024 * 1024;
    private static final int TIMING_ROUNDS = 5;

    private RealTextScan() {}

    /** A readable text and where it came from. */
    record Text(Path path, String text) {}

    static List<Text> load(Path from) throws IOException {
        List<Path> paths = new ArrayList<>();
        if (Files.isDirectory(from)) {
            try (Stream<Path> walk = Files.walk(from)) {
                walk.filter(Files::isRegularFile).sorted().forEach(paths::add);
            }
        } else {
            for (String line : Files.readAllLines(from, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    paths.add(Path.of(line.strip()));
                }
            }
        }
        List<Text> texts = new ArrayList<>();
        for (Path p : paths) {
            String text = readUtf8(p);
            if (text != null) {
                texts.add(new Text(p, text));
            }
        }
        return texts;
    }

    /** The file's text, or null when it is too large, unreadable, or not UTF-8 (binaries, other encodings). */
    static String readUtf8(Path p) {
        try {
            if (!Files.isRegularFile(p) || Files.size(p) > MAX_FILE_BYTES) {
                return null;
            }
            return StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(Files.readAllBytes(p)))
                    .toString();
        } catch (IOException notUtf8OrUnreadable) {
            return null;
        }
    }

    static void report(Path from, SecretScanner now, SecretScanner baseline, int show, PrintStream out) {
        List<Text> texts;
        try {
            texts = load(from);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long chars = texts.stream().mapToLong(t -> t.text().length()).sum();
        Map<String, Integer> perRule = new TreeMap<>();
        Map<String, Integer> newPerRule = new TreeMap<>();
        List<String> shown = new ArrayList<>();
        for (Text t : texts) {
            List<Finding> found = now.scan(t.text());
            Set<String> before = new HashSet<>();
            if (baseline != null) {
                baseline.scan(t.text()).forEach(f -> before.add(f.start() + ":" + f.end()));
            }
            for (Finding f : found) {
                perRule.merge(f.ruleId(), 1, Integer::sum);
                boolean added = baseline != null && !before.contains(f.start() + ":" + f.end());
                if (added) {
                    newPerRule.merge(f.ruleId(), 1, Integer::sum);
                }
                if ((baseline == null || added) && shown.size() < show) {
                    shown.add(t.path() + " " + f.ruleId() + " | " + context(t.text(), f));
                }
            }
        }
        out.printf("%nreal text: %d files, %d characters under %s%n", texts.size(), chars, from);
        out.printf(
                "findings: %d (%d rules)%s%n",
                perRule.values().stream().mapToInt(Integer::intValue).sum(),
                perRule.size(),
                baseline == null
                        ? ""
                        : "; not made by the baseline rules: "
                                + newPerRule.values().stream()
                                        .mapToInt(Integer::intValue)
                                        .sum());
        // with a baseline only the rules that made new findings are listed: the rest are as before
        perRule.forEach((rule, n) -> {
            if (baseline == null || newPerRule.containsKey(rule)) {
                out.printf("  %-40s %6d%s%n", rule, n, baseline == null ? "" : "   new " + newPerRule.get(rule));
            }
        });
        shown.forEach(s -> out.println("  " + (baseline == null ? "finding: " : "new finding: ") + s));
        if (!texts.isEmpty()) {
            timing(texts, chars, now, baseline, out);
        }
    }

    /** Medians of interleaved whole passes over the text, so both scanners see the same machine load. */
    private static void timing(
            List<Text> texts, long chars, SecretScanner now, SecretScanner baseline, PrintStream out) {
        long[] tNow = new long[TIMING_ROUNDS];
        long[] tBase = new long[TIMING_ROUNDS];
        pass(texts, now); // warm-up
        if (baseline != null) {
            pass(texts, baseline);
        }
        for (int r = 0; r < TIMING_ROUNDS; r++) {
            // alternate which goes first, so neither always runs on the other's warm caches
            if (baseline != null && r % 2 == 1) {
                tBase[r] = pass(texts, baseline);
            }
            tNow[r] = pass(texts, now);
            if (baseline != null && r % 2 == 0) {
                tBase[r] = pass(texts, baseline);
            }
        }
        java.util.Arrays.sort(tNow);
        java.util.Arrays.sort(tBase);
        double msNow = tNow[TIMING_ROUNDS / 2] / 1e6;
        out.printf(
                Locale.ROOT,
                "scan time (median of %d interleaved passes): %.0f ms, %.1f MB/s%s%n",
                TIMING_ROUNDS,
                msNow,
                chars / 1e6 / (msNow / 1000),
                baseline == null
                        ? ""
                        : String.format(
                                Locale.ROOT,
                                "; baseline rules %.0f ms; ratio %.3f",
                                tBase[TIMING_ROUNDS / 2] / 1e6,
                                (double) tNow[TIMING_ROUNDS / 2] / tBase[TIMING_ROUNDS / 2]));
    }

    private static long pass(List<Text> texts, SecretScanner scanner) {
        long t0 = System.nanoTime();
        int n = 0;
        for (Text t : texts) {
            n += scanner.scan(t.text()).size();
        }
        if (n < 0) {
            throw new IllegalStateException(); // keeps the loop's result alive
        }
        return System.nanoTime() - t0;
    }

    /** Sixty characters either side, the matched value cut to its first four characters, on one line. */
    static String context(String text, Finding f) {
        int from = Math.max(0, f.start() - 60);
        int to = Math.min(text.length(), f.end() + 60);
        String value = text.substring(f.start(), f.end());
        String cut = value.length() <= 4 ? value : value.substring(0, 4) + "…";
        return (text.substring(from, f.start()) + "⟦" + cut + "⟧" + text.substring(f.end(), to))
                .replace('\n', ' ')
                .replace('\r', ' ');
    }
}
