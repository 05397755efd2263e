package dev.cairn.bench;

import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.EmbeddedExtractor;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.SessionService;
import dev.cairn.model.session.Summarizer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;

/**
 * {@code summary-bench [--datasets DIR] [--sessions N]}: what survives folding into the rolling summary, on
 * conversations nobody here wrote (BEAM in English, MemDaily pooled in Chinese). Each session's messages are folded
 * {@code foldCount} at a time into a summary of at most {@code summaryChars} (the defaults of
 * {@link SessionService.Limits}), exactly as the session buffer does; measured after each fold:
 *
 * <ul>
 *   <li>names and numbers of the folded messages ({@link ExtractiveSummarizer#entitiesAndNumbers}) present in the
 *       summary;
 *   <li>decisions, preferences and conventions the user stated in the folded messages (as the embedded extractor
 *       finds them) whose names and numbers — or, when a statement has none, at least 60 % of its words — are present;
 *   <li>the summary's size against the folded text's.
 * </ul>
 *
 * The baseline in the same run keeps the folded text's head up to the budget (what plain truncation keeps). Each
 * dataset is measured on two splits of its conversations: the development split (even positions in the file), which
 * the summarizer was tuned on, and the held-out split (odd positions).
 */
public final class SummaryBench {

    private SummaryBench() {}

    static final List<String> OPTIONS = List.of("--datasets", "--sessions", "--summary-chars", "--split");
    static final String USAGE = """
            usage: summary-bench [--datasets DIR] [--sessions N] [--summary-chars N] [--split development|held-out]
            Measures what survives folding into the rolling summary on the shared datasets' conversations: names and
            numbers, stated decisions/preferences/conventions, and the summary's size; extractive summarizer beside a
            truncation baseline.
              --datasets DIR  the shared datasets (default ../shared/datasets)
              --sessions N    sessions of 45 messages per dataset and split (default 20; development split: the
                              even conversations of each file, held-out split: the odd ones)
              --summary-chars N  the summary budget (default: the session default, cairn.sessions.summary-chars)
              --split S       development or held-out: only that split (default both; development while tuning, so
                              the held-out split stays unseen)
            example: java -jar functions/bench/target/cairn-bench.jar summary-bench --sessions 10
            """;

    public static int run(List<String> args) {
        return Options.run("summary-bench", USAGE, OPTIONS, args, System.out, System.err, o -> {
            Path datasets = o.path("--datasets", Path.of("../shared/datasets"));
            int sessions = o.positive("--sessions", 20);
            SessionService.Limits defaults = SessionService.Limits.defaults();
            int summaryChars = o.positive("--summary-chars", defaults.summaryChars());
            String split = o.string("--split", "both");
            List<String> parts = switch (split) {
                case "both" -> List.of("development", "held-out");
                case "development", "held-out" -> List.of(split);
                default -> throw new Options.UsageError("--split is development or held-out, not " + split);
            };
            try {
                OnnxEmbedder embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
                EmbeddedExtractor extractor = new EmbeddedExtractor(embedder, SecretScanner.bundled());
                SessionService.Limits limits = new SessionService.Limits(
                        defaults.foldAt(), defaults.foldCount(), defaults.maxMessageBytes(), summaryChars);
                Summarizer truncation = (previous, folded, max) -> {
                    StringBuilder all = new StringBuilder(previous == null ? "" : previous);
                    folded.forEach(m -> all.append(all.length() == 0 ? "" : " ").append(m.content()));
                    return all.length() <= max ? all.toString() : all.substring(0, max);
                };
                for (String set : List.of("beam_100K", "memdaily_zh")) {
                    Path file = datasets.resolve(set).resolve("conversations.jsonl.gz");
                    if (!Files.exists(file)) {
                        System.out.println("summary-bench: " + file + " not found, skipped");
                        continue;
                    }
                    // the development split (even conversations of the file) is what the summarizer was tuned on; the
                    // held-out split (odd conversations) is reported beside it and was not looked at while tuning
                    for (String part : parts) {
                        int parity = part.equals("development") ? 0 : 1;
                        List<List<SessionMessage>> runs =
                                Conversations.runs(file, 3 * limits.foldCount(), sessions, i -> i % 2 == parity);
                        String name = set + " " + part;
                        List<List<FactExtractor.Fact>> stated = statedPerFold(runs, extractor, limits.foldCount());
                        measure(name + " extractive", runs, new ExtractiveSummarizer(), stated, limits);
                        measure(name + " truncation (baseline)", runs, truncation, stated, limits);
                    }
                }
                return 0;
            } catch (Exception e) {
                return Failures.report("summary-bench", e);
            }
        });
    }

    /**
     * The decisions, preferences and conventions the user stated in each fold, in fold order: extracted once and
     * measured against every summarizer's output (extraction embeds every sentence, the bench's slowest step).
     */
    private static List<List<FactExtractor.Fact>> statedPerFold(
            List<List<SessionMessage>> runs, FactExtractor extractor, int foldCount) {
        List<List<FactExtractor.Fact>> out = new ArrayList<>();
        for (List<SessionMessage> run : runs) {
            for (int from = 0; from + foldCount <= run.size(); from += foldCount) {
                out.add(extractor.extract(run.subList(from, from + foldCount)).facts().stream()
                        .filter(f -> f.type() == MemoryType.DECISION
                                || f.type() == MemoryType.PREFERENCE
                                || f.type() == MemoryType.CONVENTION)
                        .toList());
            }
        }
        return out;
    }

    private static void measure(
            String title,
            List<List<SessionMessage>> runs,
            Summarizer summarizer,
            List<List<FactExtractor.Fact>> statedPerFold,
            SessionService.Limits limits) {
        long names = 0;
        long namesKept = 0;
        long namesAcrossLines = 0;
        long namesAcrossLinesKept = 0;
        long stated = 0;
        long statedKept = 0;
        long foldedChars = 0;
        long summaryChars = 0;
        int folds = 0;
        for (List<SessionMessage> run : runs) {
            String summary = "";
            for (int from = 0; from + limits.foldCount() <= run.size(); from += limits.foldCount()) {
                List<SessionMessage> folded = run.subList(from, from + limits.foldCount());
                summary = summarizer.fold(summary, folded, limits.summaryChars());
                StringBuilder text = new StringBuilder();
                folded.forEach(m -> text.append(m.content()).append('\n'));
                foldedChars += text.length();
                summaryChars += summary.length();
                Set<String> entities = ExtractiveSummarizer.entitiesAndNumbers(text.toString());
                names += entities.size();
                namesKept += present(entities, summary);
                // the previous definition, where a name could run across a line break, shown beside the new one
                Set<String> acrossLines = ExtractiveSummarizer.entitiesAndNumbersAcrossLines(text.toString());
                namesAcrossLines += acrossLines.size();
                namesAcrossLinesKept += present(acrossLines, summary);
                for (FactExtractor.Fact f : statedPerFold.get(folds)) {
                    stated++;
                    if (survives(f.content(), summary)) {
                        statedKept++;
                    }
                }
                folds++;
            }
        }
        System.out.printf(
                Locale.ROOT,
                "%n== %s: %d sessions, %d folds of %d messages into %d chars ==%n"
                        + "  names and numbers kept %.1f %% (%d/%d)"
                        + " [previous definition, names across line breaks: %.1f %% (%d/%d)]%n"
                        + "  stated decisions/preferences/conventions kept %.1f %% (%d/%d)%n"
                        + "  summary size %.3f of the folded text (%d / %d chars)%n",
                title,
                runs.size(),
                folds,
                limits.foldCount(),
                limits.summaryChars(),
                100.0 * namesKept / Math.max(1, names),
                namesKept,
                names,
                100.0 * namesAcrossLinesKept / Math.max(1, namesAcrossLines),
                namesAcrossLinesKept,
                namesAcrossLines,
                100.0 * statedKept / Math.max(1, stated),
                statedKept,
                stated,
                (double) summaryChars / Math.max(1, foldedChars),
                summaryChars,
                foldedChars);
    }

    private static long present(Set<String> entities, String summary) {
        return entities.stream().filter(summary::contains).count();
    }

    /** Whether a stated fact's names and numbers (or, without any, most of its words) are in the summary. */
    static boolean survives(String statement, String summary) {
        Set<String> entities = ExtractiveSummarizer.entitiesAndNumbers(statement);
        if (!entities.isEmpty()) {
            return entities.stream().allMatch(summary::contains);
        }
        List<String> words = new ArrayList<>();
        for (String w : statement.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (w.length() >= 4
                    || (!w.isEmpty() && Character.UnicodeScript.of(w.codePointAt(0)) == Character.UnicodeScript.HAN)) {
                words.add(w);
            }
        }
        if (words.isEmpty()) {
            return summary.contains(statement.strip());
        }
        String lower = summary.toLowerCase(Locale.ROOT);
        long present = words.stream().filter(lower::contains).count();
        return present >= Math.ceil(0.6 * words.size());
    }
}
