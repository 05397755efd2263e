package dev.cairn.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.embedded.TextAnalyzers;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.VectorIndex;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * {@code recall-bench}: how well recall finds what was said, on public conversational-memory benchmarks
 * ({@code /work/shared/datasets}, one schema: see its README).
 *
 * <p>Per set, the packaged local server is started on a fresh data directory with the set's language model; each
 * conversation (MemDaily: each pool of {@code --pool} short trajectories) is loaded into a team of its own through
 * {@code memories:batch} (one {@code episode} memory per turn, {@code occurred_at} the session's date plus the turn's
 * position in seconds); every question with turn evidence is asked through {@code POST /recall}. Teams alternate
 * between a dev half and a held-out half: the lexical fusion weight and the freshness weight are chosen on dev (by
 * re-ranking the answers' own score parts offline with the server's formula), then both halves are asked again with
 * them and both are printed.
 * The baselines come from the very index the server wrote, opened after it stops: BM25 alone (Lucene, the index's
 * analyser) and the embedding model alone (exact cosine over every vector of the team), plus reciprocal-rank fusion
 * of the two for comparison.
 */
public final class RecallBench {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String USER = "bench-user";
    private static final int TOP_K = 50;
    private static final int[] KS = {1, 5, 10, 20};
    private static final int MAX_CONTENT_BYTES = 32 * 1024;
    private static final int BATCH_ITEMS = 200;
    private static final int BATCH_BYTES = 2 * 1024 * 1024;
    private static final double[] LEXICAL_GRID = {0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};
    /** The server's β first: a tie on dev keeps the default. α and γ stay at their defaults (0.7, 0.15). */
    private static final double[] FRESHNESS_GRID = {0.15, 0, 0.05, 0.1, 0.2, 0.3};

    private static final double DEFAULT_BETA = 0.15;

    static final List<String> OPTIONS = List.of(
            "--sets",
            "--datasets",
            "--pool",
            "--conversations",
            "--work-dir",
            "--server-jar",
            "--before-jar",
            "--context",
            "--asked-at");
    static final String USAGE = """
            usage: recall-bench [--sets beam_100K,memdaily_zh] [--datasets DIR] [--pool N] [--conversations N]
                                [--work-dir DIR] [--server-jar JAR] [--before-jar JAR] [--context next|none]
                                [--asked-at none|end]
            Loads each conversation of each set into its own team of the packaged local server (one memory per turn),
            asks every question with evidence through POST /recall, and prints turn- and session-level Recall@1/5/10/20
            and nDCG@10 per question type and overall, beside BM25-only, dense-only (exact cosine) and RRF baselines
            of the same run; the lexical weight is chosen on the dev half and both halves are printed. A work
            directory that already holds a set's data (turns.json beside data/) is reused without ingesting.
              --sets LIST       comma-separated sets (default beam_100K,memdaily_zh; also beam_500K, realmem)
              --datasets DIR    where the sets live (default /work/shared/datasets)
              --pool N          MemDaily trajectories pooled per team (default 100)
              --conversations N a sample of N conversations spread evenly over each set (default all)
              --work-dir DIR    data directories, server logs and recall-report.json (default a new temp directory)
              --server-jar JAR  the packaged local server (default functions/local/target/quarkus-app/quarkus-run.jar)
              --before-jar JAR  another server build (e.g. main's) asked alike on the same data: cairn-before (default none)
              --context MODE    next or none (default next): whether each turn is written with the next turn of
                                its session as its context (the reply, which recall matches by its words only)
              --asked-at WHEN   none (default) or end: with end, a question with no cut-off of its own (BEAM's)
                                is asked with as_of one second after its conversation's last turn, as a user asks
                                right after talking, so freshness counts; with none it is asked at the server's
                                clock, when every turn of a 2024 conversation is years old and freshness is 0. Sets
                                that pool conversations into a team (MemDaily) are always asked at the clock: their
                                conversations' dates say nothing about one another. The weights are chosen by
                                re-ranking the default answer's top 50, which the default freshness fills with the
                                last sessions under end, so end is for studying freshness, not for the issue's lead
            example: java -jar functions/bench/target/cairn-bench.jar recall-bench --sets beam_100K --conversations 6
            """;

    public static int run(List<String> args) {
        return Options.run("recall-bench", USAGE, OPTIONS, args, System.out, System.err, o -> {
            List<String> sets =
                    List.of(o.string("--sets", "beam_100K,memdaily_zh").split(","));
            Path datasets = o.path("--datasets", Path.of("/work/shared/datasets"));
            int pool = o.positive("--pool", 100);
            int limit = o.positive("--conversations", Integer.MAX_VALUE);
            Path work = o.path("--work-dir", null);
            Path server = o.path("--server-jar", Path.of(Bench.SERVER_JAR));
            Path before = o.path("--before-jar", null);
            String contextMode = o.string("--context", "next");
            String askedAt = o.string("--asked-at", "none");
            if (!askedAt.equals("none") && !askedAt.equals("end")) {
                throw new Options.UsageError("--asked-at must be none or end, not " + askedAt);
            }
            if (!contextMode.equals("next") && !contextMode.equals("none")) {
                throw new Options.UsageError("--context must be next or none, not " + contextMode);
            }
            for (String s : sets) {
                if (!Files.isRegularFile(datasets.resolve(s).resolve("questions.jsonl.gz"))) {
                    throw new Options.UsageError("no set " + s + " under " + datasets);
                }
            }
            try {
                if (work == null) {
                    work = Files.createTempDirectory("cairn-recall-bench-");
                }
                ObjectNode report = JSON.createObjectNode();
                long started = System.nanoTime();
                for (String s : sets) {
                    report.set(
                            s,
                            new RecallBench(contextMode.equals("next"), askedAt.equals("end"))
                                    .execute(s, datasets.resolve(s), pool, limit, work.resolve(s), server, before));
                }
                report.put("seconds", (System.nanoTime() - started) / 1e9);
                Files.writeString(
                        work.resolve("recall-report.json"),
                        JSON.writerWithDefaultPrettyPrinter().writeValueAsString(report));
                System.out.printf(
                        Locale.ROOT,
                        "%nrecall-bench took %.0f s; report: %s%n",
                        (System.nanoTime() - started) / 1e9,
                        work.resolve("recall-report.json"));
                return 0;
            } catch (Exception e) {
                return Failures.report("recall-bench", e);
            }
        });
    }

    // ---------------------------------------------------------------- data

    record Turn(String turnId, String sessionId, String content, Instant at) {}

    record Conversation(String id, String language, List<Turn> turns) {}

    record Question(
            String id, String conv, String type, String text, Set<String> turns, Set<String> sessions, String cutoff) {}

    /** A team of the run: its conversations and which half it belongs to. */
    record Team(String id, List<Conversation> conversations, boolean dev) {}

    /** One retrieved turn with the parts the server reported (NaN where the baseline has none). */
    record Ranked(Turn turn, double similarity, double lexical, double freshness, double confidence) {}

    static List<JsonNode> readJsonLines(Path gz) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(
                new InputStreamReader(new GZIPInputStream(Files.newInputStream(gz)), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (!line.isBlank()) {
                    out.add(JSON.readTree(line));
                }
            }
        }
        return out;
    }

    private static final Pattern BEAM_DATE = Pattern.compile("([A-Za-z]+)-(\\d{1,2})-(\\d{4})");
    private static final Pattern CJK_DATE =
            Pattern.compile("(\\d{4})年(\\d{1,2})月(\\d{1,2})日(?:.*?(\\d{1,2}):(\\d{2}))?");
    private static final Pattern ISO_DATE = Pattern.compile("(\\d{4})-(\\d{2})-(\\d{2})(?:[ T](\\d{2}):(\\d{2}))?");

    /** The session dates as each source wrote them: "March-15-2024", "2024年04月01日 周一 08:30", "2025-12-15 (Monday)". */
    static Instant parseDate(String s) {
        if (s == null) {
            return null;
        }
        Matcher m = BEAM_DATE.matcher(s);
        if (m.matches()) {
            return LocalDate.parse(
                            m.group(1) + " " + m.group(2) + " " + m.group(3),
                            DateTimeFormatter.ofPattern("MMMM d yyyy", Locale.ENGLISH))
                    .atStartOfDay()
                    .toInstant(ZoneOffset.UTC);
        }
        m = CJK_DATE.matcher(s);
        if (!m.find()) {
            m = ISO_DATE.matcher(s);
            if (!m.find()) {
                return null;
            }
        }
        int hour = m.group(4) == null ? 0 : Integer.parseInt(m.group(4));
        int minute = m.group(5) == null ? 0 : Integer.parseInt(m.group(5));
        return LocalDateTime.of(
                        Integer.parseInt(m.group(1)),
                        Integer.parseInt(m.group(2)),
                        Integer.parseInt(m.group(3)),
                        hour,
                        minute)
                .toInstant(ZoneOffset.UTC);
    }

    static Conversation conversation(JsonNode c) {
        List<Turn> turns = new ArrayList<>();
        Instant fallback = Instant.parse("2024-01-01T00:00:00Z");
        Instant previous = Instant.MIN;
        for (JsonNode s : c.get("sessions")) {
            Instant date = parseDate(s.path("date").asText(null));
            Instant base = date != null ? date : fallback;
            int i = 0;
            for (JsonNode t : s.get("turns")) {
                // the turn's position in seconds, and never before the turn that precedes it in the file: two
                // sessions of one day (or a session dated before the previous one, as in a few RealMem dialogues)
                // must not interleave, or as_of could not cut the history at a turn
                Instant at = base.plusSeconds(i++);
                if (!at.isAfter(previous)) {
                    at = previous.plusSeconds(1);
                }
                previous = at;
                turns.add(new Turn(
                        t.get("turn_id").asText(),
                        s.get("session_id").asText(),
                        t.get("content").asText(),
                        at));
            }
            fallback = base.plus(Duration.ofDays(1));
        }
        return new Conversation(c.get("conv_id").asText(), c.path("language").asText("en"), turns);
    }

    static Question question(JsonNode q) {
        Set<String> turns = new LinkedHashSet<>();
        q.path("evidence_turn_ids").forEach(t -> turns.add(t.asText()));
        Set<String> sessions = new LinkedHashSet<>();
        q.path("evidence_session_ids").forEach(t -> sessions.add(t.asText()));
        return new Question(
                q.get("question_id").asText(),
                q.get("conv_id").asText(),
                q.get("question_type").asText(),
                q.get("question").asText(),
                turns,
                sessions,
                cutoff(q.path("history_cutoff")));
    }

    /**
     * The question's history cut-off as {@code session_id#turn_index} (RealMem writes an object) or a turn id; null
     * when the question may see the whole conversation.
     */
    static String cutoff(JsonNode node) {
        if (node.isObject()) {
            return node.path("session_id").asText() + "#"
                    + node.path("turn_index").asInt();
        }
        return node.isTextual() && !node.asText().isEmpty() ? node.asText() : null;
    }

    /**
     * Where a question's history ends (exclusive), or null for "at the server's clock": its cut-off turn if it has
     * one (RealMem); else, asked at the end, one second past the conversation's last turn (the request's as_of is one
     * second before this, and turns are at least a second apart), so every turn is seen and freshness is counted from
     * the conversation's end rather than from today, when every turn of a 2024 conversation is years old.
     */
    static Instant seesBefore(Conversation c, String cutoff, boolean askedAtEnd) {
        Turn cut = cutoffTurn(c, cutoff);
        if (cut != null) {
            return cut.at();
        }
        if (!askedAtEnd || c.turns().isEmpty()) {
            return null;
        }
        return c.turns().get(c.turns().size() - 1).at().plusSeconds(2);
    }

    /**
     * The turn a cut-off names, or null. A RealMem question is itself the turn at its cut-off, so the question may
     * see only the turns before it (retrieving the question itself would answer nothing).
     */
    static Turn cutoffTurn(Conversation c, String cutoff) {
        if (cutoff == null) {
            return null;
        }
        int hash = cutoff.lastIndexOf('#');
        if (hash < 0) {
            return c.turns().stream()
                    .filter(t -> t.turnId().equals(cutoff))
                    .findFirst()
                    .orElse(null);
        }
        String session = cutoff.substring(0, hash);
        int index = Integer.parseInt(cutoff.substring(hash + 1));
        List<Turn> ofSession =
                c.turns().stream().filter(t -> t.sessionId().equals(session)).toList();
        return index < ofSession.size() ? ofSession.get(index) : null;
    }

    /** UTF-8 safe cut at the server's content cap (a handful of BEAM turns paste whole files). */
    static String capped(String content) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= MAX_CONTENT_BYTES) {
            return content;
        }
        int end = MAX_CONTENT_BYTES;
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8);
    }

    /** Whether each turn is written with the next turn of its session as its context. */
    private final boolean withReplies;

    /** Whether a question without a cut-off is asked right after its conversation (as_of), not at the clock. */
    private final boolean askedAtEnd;

    RecallBench(boolean withReplies, boolean askedAtEnd) {
        this.withReplies = withReplies;
        this.askedAtEnd = askedAtEnd;
    }

    // ---------------------------------------------------------------- one set

    private ObjectNode execute(String set, Path dir, int poolSize, int limit, Path work, Path serverJar, Path beforeJar)
            throws Exception {
        Files.createDirectories(work);
        List<JsonNode> raw = readJsonLines(dir.resolve("conversations.jsonl.gz"));
        List<Conversation> conversations = new ArrayList<>();
        Set<String> kept = new java.util.HashSet<>();
        // a sample is spread evenly over the file: sets are stored grouped by question type
        double stride = Math.max(1.0, raw.size() / (double) Math.min(limit, raw.size()));
        for (double i = 0; Math.round(i) < raw.size() && conversations.size() < limit; i += stride) {
            Conversation c = conversation(raw.get((int) Math.round(i)));
            conversations.add(c);
            kept.add(c.id());
        }
        List<Question> questions = new ArrayList<>();
        int withoutEvidence = 0;
        for (JsonNode q : readJsonLines(dir.resolve("questions.jsonl.gz"))) {
            Question question = question(q);
            if (!kept.contains(question.conv())) {
                continue;
            }
            if (question.turns().isEmpty()) {
                withoutEvidence++;
            } else {
                questions.add(question);
            }
        }
        boolean chinese = conversations.stream().anyMatch(c -> c.language().startsWith("zh"));
        String model = chinese ? OnnxEmbedder.BGE_SMALL_ZH : OnnxEmbedder.BGE_SMALL_EN;
        // short trajectories are pooled so that every question searches a real haystack
        int perTeam =
                conversations.stream().mapToInt(c -> c.turns().size()).average().orElse(0) < 50 ? poolSize : 1;
        List<Team> teams = new ArrayList<>();
        Map<String, Team> teamOfConv = new HashMap<>();
        for (int from = 0, t = 0; from < conversations.size(); from += perTeam, t++) {
            Team team = new Team(
                    "t" + t, conversations.subList(from, Math.min(conversations.size(), from + perTeam)), t % 2 == 0);
            teams.add(team);
            team.conversations().forEach(c -> teamOfConv.put(c.id(), team));
        }
        // where a question's history ends (exclusive): RealMem's questions sit inside the dialogue
        Map<String, Conversation> byId = new HashMap<>();
        conversations.forEach(c -> byId.put(c.id(), c));
        Map<String, Instant> seesBefore = new HashMap<>();
        for (Question q : questions) {
            Instant sees = seesBefore(byId.get(q.conv()), q.cutoff(), askedAtEnd && perTeam == 1);
            if (sees != null) {
                seesBefore.put(q.id(), sees);
            }
        }
        int turnCount = conversations.stream().mapToInt(c -> c.turns().size()).sum();
        log(
                "%s: %d conversations in %d teams, %d turns, %d questions with turn evidence (%d without), model %s",
                set, conversations.size(), teams.size(), turnCount, questions.size(), withoutEvidence, model);

        Path data = work.resolve("data");
        Path mapping = work.resolve("turns.json");
        boolean reuse = Files.isRegularFile(mapping);
        // data written with one context mode must not be asked as if written with the other
        Path modeFile = work.resolve("context-mode");
        String mode = withReplies ? "next" : "none";
        if (reuse) {
            String written =
                    Files.isRegularFile(modeFile) ? Files.readString(modeFile).trim() : "none";
            if (!written.equals(mode)) {
                throw new Options.UsageError(work + " holds data written with --context " + written
                        + "; use another --work-dir for --context " + mode);
            }
        }
        String javaBin = ProcessHandle.current().info().command().orElse("java");
        List<String> tokenCmd = new ArrayList<>(
                List.of(javaBin, "-jar", serverJar.toString(), "token", "--user", USER, "--days", "1", "--data-dir"));
        tokenCmd.add(data.toString());
        teams.forEach(t -> {
            tokenCmd.add("--team");
            tokenCmd.add(t.id());
        });
        String token = runForLastLine(tokenCmd);
        HttpClient http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(2))
                .build();
        Map<String, Turn> byMemory = new HashMap<>();
        Map<String, Map<String, Turn>> turnsByTeam = new HashMap<>();
        for (Team team : teams) {
            Map<String, Turn> byTurn = new HashMap<>();
            team.conversations().forEach(c -> c.turns().forEach(t -> byTurn.put(t.turnId(), t)));
            turnsByTeam.put(team.id(), byTurn);
        }
        if (reuse) {
            JSON.readTree(mapping.toFile()).fields().forEachRemaining(e -> {
                String[] teamAndTurn = e.getValue().asText().split("/", 2);
                byMemory.put(e.getKey(), turnsByTeam.get(teamAndTurn[0]).get(teamAndTurn[1]));
            });
            log("%s: reusing %d memories already in %s", set, byMemory.size(), data);
        }
        Map<Question, List<Ranked>> current = new LinkedHashMap<>();
        Map<Question, List<Ranked>> tuned = new LinkedHashMap<>();
        Map<Question, List<Ranked>> before = new LinkedHashMap<>();
        double chosen = Double.NaN;
        double chosenBeta = DEFAULT_BETA;
        ObjectNode tuning = JSON.createObjectNode();
        int port = freePort();
        String base = "http://127.0.0.1:" + port + "/v1/teams/";
        Process server = startServer(javaBin, serverJar, data, port, model, work.resolve("server.log"));
        try {
            waitUntilUp(http, base + teams.get(0).id(), token, server);
            if (!reuse) {
                long ingestStart = System.nanoTime();
                ObjectNode turnOf = JSON.createObjectNode();
                for (Team team : teams) {
                    List<Turn> all = new ArrayList<>();
                    team.conversations().forEach(c -> all.addAll(c.turns()));
                    Map<String, Turn> created = new HashMap<>();
                    ingest(http, base + team.id(), token, all, withReplies ? replies(team) : Map.of(), created);
                    created.forEach((id, t) -> turnOf.put(id, team.id() + "/" + t.turnId()));
                    byMemory.putAll(created);
                }
                Files.writeString(mapping, JSON.writeValueAsString(turnOf));
                Files.writeString(modeFile, mode);
                log(
                        "%s: ingested %d turns in %.0f s (%.1f turns/s)",
                        set, byMemory.size(), seconds(ingestStart), byMemory.size() / seconds(ingestStart));
            }

            // 1. as configured: the server's default ranking
            long askStart = System.nanoTime();
            for (Question q : questions) {
                current.put(q, ask(http, base, token, teamOfConv, seesBefore, byMemory, q, null, null));
            }
            log("%s: %d recalls in %.0f s", set, questions.size(), seconds(askStart));
            boolean parts = current.values().stream().flatMap(List::stream).anyMatch(r -> !Double.isNaN(r.lexical()));
            if (parts) {
                // 2. the lexical weight that does best on the dev half, by re-ranking the answers' own parts
                // and the freshness weight β beside it (the issue: any weight chosen on one half)
                double best = -1;
                for (double b : FRESHNESS_GRID) {
                    for (double w : LEXICAL_GRID) {
                        Map<Question, List<Ranked>> dev = new LinkedHashMap<>();
                        current.forEach((q, list) -> {
                            if (teamOfConv.get(q.conv()).dev()) {
                                dev.put(q, reranked(list, w, b));
                            }
                        });
                        double r10 = Metrics.of(dev).overall().turnRecall()[2];
                        tuning.put(b == DEFAULT_BETA ? String.valueOf(w) : w + ",beta=" + b, r10);
                        log("%s: dev turn R@10 with lexical weight %.1f, freshness weight %.2f: %.4f", set, w, b, r10);
                        if (r10 > best + 1e-9) {
                            best = r10;
                            chosen = w;
                            chosenBeta = b;
                        }
                    }
                }
                // 3. both halves asked again through HTTP with the chosen weight
                for (Question q : questions) {
                    tuned.put(q, ask(http, base, token, teamOfConv, seesBefore, byMemory, q, chosen, chosenBeta));
                }
            }
        } finally {
            stop(server);
        }
        if (beforeJar != null) {
            // the same data and questions through another build of the server, with its own defaults
            port = freePort();
            base = "http://127.0.0.1:" + port + "/v1/teams/";
            server = startServer(javaBin, beforeJar, data, port, model, work.resolve("server-before.log"));
            try {
                waitUntilUp(http, base + teams.get(0).id(), token, server);
                for (Question q : questions) {
                    before.put(q, ask(http, base, token, teamOfConv, seesBefore, byMemory, q, null, null));
                }
            } finally {
                stop(server);
            }
        }

        // Baselines over the very index the server wrote.
        ExecutorService pool = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
        Map<Question, List<Ranked>> bm25 = new LinkedHashMap<>();
        Map<Question, List<Ranked>> dense = new LinkedHashMap<>();
        Map<Question, List<Ranked>> rrf = new LinkedHashMap<>();
        // variants of the lexical side measured offline on the same turns (item 3: keep only what helps)
        Map<String, Map<Question, List<Ranked>>> variants = new LinkedHashMap<>();
        Map<String, Map<Question, List<Ranked>>> hybrids = new LinkedHashMap<>();
        Map<String, LexicalVariant> lexicalVariants = new LinkedHashMap<>();
        // the index's own analyser is TextAnalyzers.cjkBigrams; "-standard" is the one it replaced (CJK unigrams)
        lexicalVariants.put("bm25-standard", new LexicalVariant(TextAnalyzers.standard(), false));
        lexicalVariants.put("bm25-next", new LexicalVariant(TextAnalyzers.cjkBigrams(), true));
        // candidates for the English side: Snowball's wider stop list (question words, pronouns), Porter stems
        var snowball = TextAnalyzers.snowballEnglishStopWords();
        var lucene = org.apache.lucene.analysis.en.EnglishAnalyzer.ENGLISH_STOP_WORDS_SET;
        lexicalVariants.put("bm25-next-snowball", new LexicalVariant(TextAnalyzers.cjkBigrams(snowball, false), true));
        lexicalVariants.put("bm25-next-porter", new LexicalVariant(TextAnalyzers.cjkBigrams(lucene, true), true));
        lexicalVariants.put(
                "bm25-next-snowball-porter", new LexicalVariant(TextAnalyzers.cjkBigrams(snowball, true), true));
        Map<Question, List<Ranked>> allCosines = new LinkedHashMap<>();
        // BGE's retrieval instruction before the query (its model card: for short queries against passages), which
        // the server does not send: measured here, on data we did not write, as `dense-instructed`/`hybrid-instructed`
        Map<Question, List<Ranked>> denseInstructed = new LinkedHashMap<>();
        Map<Question, List<Ranked>> allCosinesInstructed = new LinkedHashMap<>();
        String instruction = OnnxEmbedder.BGE_SMALL_ZH.equals(model)
                ? "为这个句子生成表示以用于检索相关文章："
                : "Represent this sentence for searching relevant passages: ";
        try (LuceneVectorIndex index = new LuceneVectorIndex(data.resolve("index"))) {
            OnnxEmbedder embedder = OnnxEmbedder.load(model, pool);
            for (Team team : teams) {
                for (LexicalVariant v : lexicalVariants.values()) {
                    v.index(team, byMemory);
                }
            }
            for (Question q : questions) {
                Team team = teamOfConv.get(q.conv());
                VectorIndex.Filter filter =
                        new VectorIndex.Filter(new Id(team.id()), new Id(USER), null, Set.of(), Set.of());
                Set<String> visible = visibleMemories(seesBefore.get(q.id()), team, byMemory);
                List<Ranked> lexical = toRanked(index.lexicalSearch(filter, q.text(), 200), byMemory, visible);
                List<Ranked> everyCosine =
                        toRanked(index.exactSearch(filter, embedder.embedQuery(q.text()), 100_000), byMemory, visible);
                List<Ranked> cosine = everyCosine.subList(0, Math.min(200, everyCosine.size()));
                List<Ranked> everyInstructed = toRanked(
                        index.exactSearch(filter, embedder.embedQuery(instruction + q.text()), 100_000),
                        byMemory,
                        visible);
                allCosinesInstructed.put(q, everyInstructed);
                denseInstructed.put(q, everyInstructed.subList(0, Math.min(200, everyInstructed.size())));
                bm25.put(q, lexical);
                dense.put(q, cosine);
                allCosines.put(q, everyCosine);
                rrf.put(q, reciprocalRank(cosine, lexical));
                lexicalVariants.forEach((name, v) -> variants.computeIfAbsent(name, n -> new LinkedHashMap<>())
                        .put(q, v.search(team, q.text(), byMemory, visible)));
            }
        } finally {
            pool.shutdown();
        }
        // exact hybrids: every memory's cosine fused with a lexical variant, weight chosen on dev
        Map<String, Map<Question, List<Ranked>>> lexicalSides = new LinkedHashMap<>();
        lexicalSides.put("bm25", bm25);
        lexicalSides.putAll(variants);
        ObjectNode hybridWeights = JSON.createObjectNode();
        Map<String, Map<Question, List<Ranked>>> denseSides = new LinkedHashMap<>();
        lexicalSides.forEach((name, lex) -> denseSides.put(name, allCosines));
        lexicalSides.put("bm25-instructed", bm25);
        denseSides.put("bm25-instructed", allCosinesInstructed);
        lexicalSides.forEach((name, lex) -> {
            Map<Question, List<Ranked>> cosinesOf = denseSides.get(name);
            double bestW = 0;
            double best = -1;
            for (double w : LEXICAL_GRID) {
                Map<Question, List<Ranked>> dev = new LinkedHashMap<>();
                for (Question q : questions) {
                    if (teamOfConv.get(q.conv()).dev()) {
                        dev.put(q, fused(cosinesOf.get(q), lex.get(q), w));
                    }
                }
                double r10 = Metrics.of(dev).overall().turnRecall()[2];
                if (r10 > best + 1e-9) {
                    best = r10;
                    bestW = w;
                }
            }
            Map<Question, List<Ranked>> all = new LinkedHashMap<>();
            for (Question q : questions) {
                all.put(q, fused(cosinesOf.get(q), lex.get(q), bestW));
            }
            String hybridName = "hybrid" + name.substring(4);
            hybrids.put(hybridName, all);
            hybridWeights.put(hybridName, bestW);
        });

        writeCandidates(work.resolve("candidates.jsonl"), questions, teamOfConv, allCosines, bm25, current);

        ObjectNode out = JSON.createObjectNode();
        out.put("model", model)
                .put("teams", teams.size())
                .put("turns", turnCount)
                .put("questions", questions.size())
                .put("questions_without_evidence", withoutEvidence)
                .put("chosen_lexical_weight", chosen)
                .put("chosen_freshness_weight", chosenBeta)
                .put("asked_at_end", askedAtEnd);
        out.set("dev_tuning_turn_r10", tuning);
        out.set("offline_hybrid_lexical_weights", hybridWeights);
        System.out.printf(
                Locale.ROOT,
                "%n=== %s: %d questions with turn evidence, %d teams (dev = even teams, held-out = odd), model %s ===%n",
                set,
                questions.size(),
                teams.size(),
                model);
        if (!Double.isNaN(chosen)) {
            System.out.printf(
                    Locale.ROOT, "lexical weight chosen on dev: %.1f, freshness weight: %.2f%n", chosen, chosenBeta);
        }
        for (boolean devHalf : new boolean[] {true, false}) {
            String half = devHalf ? "dev" : "held-out";
            Map<String, Map<Question, List<Ranked>>> systems = new LinkedHashMap<>();
            if (!tuned.isEmpty()) {
                systems.put("cairn", onHalf(tuned, teamOfConv, devHalf));
            }
            systems.put(tuned.isEmpty() ? "cairn" : "cairn-default", onHalf(current, teamOfConv, devHalf));
            if (!before.isEmpty()) {
                systems.put("cairn-before", onHalf(before, teamOfConv, devHalf));
            }
            systems.put("bm25", onHalf(bm25, teamOfConv, devHalf));
            systems.put("dense", onHalf(dense, teamOfConv, devHalf));
            systems.put("dense-instructed", onHalf(denseInstructed, teamOfConv, devHalf));
            systems.put("rrf", onHalf(rrf, teamOfConv, devHalf));
            variants.forEach((name, v) -> systems.put(name, onHalf(v, teamOfConv, devHalf)));
            hybrids.forEach((name, v) -> systems.put(name, onHalf(v, teamOfConv, devHalf)));
            ObjectNode halfNode = out.putObject(half);
            Map<String, Metrics> results = new LinkedHashMap<>();
            systems.forEach((name, answers) -> results.put(name, Metrics.of(answers)));
            printHalf(half, results, halfNode);
        }
        return out;
    }

    private static Map<Question, List<Ranked>> onHalf(
            Map<Question, List<Ranked>> all, Map<String, Team> teamOfConv, boolean dev) {
        Map<Question, List<Ranked>> out = new LinkedHashMap<>();
        all.forEach((q, r) -> {
            if (teamOfConv.get(q.conv()).dev() == dev) {
                out.put(q, r);
            }
        });
        return out;
    }

    /**
     * Per question, its half, gold turns, query, the best 300 exact cosines, the BM25 list and the server's answer
     * with its parts: enough to study a fusion offline without asking the server again.
     */
    private static void writeCandidates(
            Path file,
            List<Question> questions,
            Map<String, Team> teamOfConv,
            Map<Question, List<Ranked>> cosines,
            Map<Question, List<Ranked>> bm25,
            Map<Question, List<Ranked>> server)
            throws IOException {
        try (var w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            for (Question q : questions) {
                ObjectNode o = JSON.createObjectNode()
                        .put("id", q.id())
                        .put("type", q.type())
                        .put("query", q.text())
                        .put("dev", teamOfConv.get(q.conv()).dev());
                q.turns().forEach(o.putArray("gold")::add);
                ArrayNode dense = o.putArray("dense");
                List<Ranked> c = cosines.get(q);
                c.subList(0, Math.min(300, c.size()))
                        .forEach(r -> dense.addArray().add(r.turn().turnId()).add(r.similarity()));
                ArrayNode lexical = o.putArray("bm25");
                bm25.get(q)
                        .forEach(r -> lexical.addArray().add(r.turn().turnId()).add(r.lexical()));
                ArrayNode answer = o.putArray("server");
                server.getOrDefault(q, List.of())
                        .forEach(r -> answer.addArray()
                                .add(r.turn().turnId())
                                .add(r.similarity())
                                .add(r.lexical())
                                .add(r.freshness())
                                .add(r.confidence()));
                w.write(JSON.writeValueAsString(o));
                w.newLine();
            }
        }
    }

    /** Memories the question may see: all of its team's, or those before its history cut-off (RealMem). */
    private static Set<String> visibleMemories(Instant cut, Team team, Map<String, Turn> byMemory) {
        if (cut == null) {
            return null;
        }
        Set<Turn> ofTeam = new java.util.HashSet<>();
        team.conversations().forEach(c -> ofTeam.addAll(c.turns()));
        Set<String> ids = new java.util.HashSet<>();
        byMemory.forEach((id, t) -> {
            if (t.at().isBefore(cut) && ofTeam.contains(t)) {
                ids.add(id);
            }
        });
        return ids;
    }

    private static List<Ranked> toRanked(
            List<VectorIndex.Candidate> candidates, Map<String, Turn> byMemory, Set<String> visible) {
        List<Ranked> out = new ArrayList<>();
        for (VectorIndex.Candidate c : candidates) {
            if (visible == null || visible.contains(c.id().value())) {
                out.add(new Ranked(byMemory.get(c.id().value()), c.similarity(), c.lexical(), Double.NaN, Double.NaN));
            }
        }
        return out;
    }

    /**
     * Offline exact hybrid: every admissible memory's cosine fused with a lexical list by the server's formula
     * (relevance only: freshness and confidence are alike for every turn of a benchmark).
     */
    static List<Ranked> fused(List<Ranked> cosines, List<Ranked> lexical, double w) {
        double best = 0;
        Map<Turn, Double> lex = new HashMap<>();
        for (Ranked r : lexical) {
            lex.put(r.turn(), r.lexical());
            best = Math.max(best, r.lexical());
        }
        double max = best;
        Map<Ranked, Double> relevance = new HashMap<>();
        for (Ranked r : cosines) {
            double l = max > 0 ? lex.getOrDefault(r.turn(), 0.0) / max : 0;
            relevance.put(
                    new Ranked(r.turn(), r.similarity(), l, Double.NaN, Double.NaN), (1 - w) * r.similarity() + w * l);
        }
        List<Ranked> out = new ArrayList<>(relevance.keySet());
        out.sort((a, b) -> Double.compare(relevance.get(b), relevance.get(a)));
        return out;
    }

    /** A lexical side built in memory over a team's turns: an analyser, optionally each turn with the next one. */
    static final class LexicalVariant {
        private final org.apache.lucene.analysis.Analyzer analyzer;
        private final boolean withNext;
        private final Map<String, org.apache.lucene.search.IndexSearcher> searchers = new HashMap<>();

        LexicalVariant(org.apache.lucene.analysis.Analyzer analyzer, boolean withNext) {
            this.analyzer = analyzer;
            this.withNext = withNext;
        }

        void index(Team team, Map<String, Turn> byMemory) throws IOException {
            Map<Turn, String> memoryOf = new HashMap<>();
            byMemory.forEach((id, t) -> memoryOf.put(t, id));
            org.apache.lucene.store.ByteBuffersDirectory dir = new org.apache.lucene.store.ByteBuffersDirectory();
            try (org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(
                    dir, new org.apache.lucene.index.IndexWriterConfig(analyzer))) {
                for (Conversation c : team.conversations()) {
                    List<Turn> turns = c.turns();
                    for (int i = 0; i < turns.size(); i++) {
                        Turn t = turns.get(i);
                        String text = capped(t.content());
                        if (withNext
                                && i + 1 < turns.size()
                                && turns.get(i + 1).sessionId().equals(t.sessionId())) {
                            text = text + "\n" + capped(turns.get(i + 1).content());
                        }
                        org.apache.lucene.document.Document d = new org.apache.lucene.document.Document();
                        d.add(new org.apache.lucene.document.StringField(
                                "id", memoryOf.get(t), org.apache.lucene.document.Field.Store.YES));
                        d.add(new org.apache.lucene.document.TextField(
                                "text", text, org.apache.lucene.document.Field.Store.NO));
                        w.addDocument(d);
                    }
                }
            }
            searchers.put(
                    team.id(),
                    new org.apache.lucene.search.IndexSearcher(org.apache.lucene.index.DirectoryReader.open(dir)));
        }

        List<Ranked> search(Team team, String text, Map<String, Turn> byMemory, Set<String> visible) {
            try {
                org.apache.lucene.search.BooleanQuery.Builder b = new org.apache.lucene.search.BooleanQuery.Builder();
                int terms = 0;
                try (org.apache.lucene.analysis.TokenStream ts = analyzer.tokenStream("text", text)) {
                    var term = ts.addAttribute(org.apache.lucene.analysis.tokenattributes.CharTermAttribute.class);
                    ts.reset();
                    while (ts.incrementToken() && terms < 500) {
                        b.add(
                                new org.apache.lucene.search.TermQuery(
                                        new org.apache.lucene.index.Term("text", term.toString())),
                                org.apache.lucene.search.BooleanClause.Occur.SHOULD);
                        terms++;
                    }
                    ts.end();
                }
                List<Ranked> out = new ArrayList<>();
                if (terms == 0) {
                    return out;
                }
                org.apache.lucene.search.IndexSearcher searcher = searchers.get(team.id());
                for (org.apache.lucene.search.ScoreDoc sd : searcher.search(b.build(), 200).scoreDocs) {
                    String id = searcher.storedFields().document(sd.doc).get("id");
                    if (visible == null || visible.contains(id)) {
                        out.add(new Ranked(byMemory.get(id), Double.NaN, sd.score, Double.NaN, Double.NaN));
                    }
                }
                return out;
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    /** RRF with the customary k = 60 over the dense and the BM25 lists. */
    static List<Ranked> reciprocalRank(List<Ranked> dense, List<Ranked> lexical) {
        Map<Turn, Double> score = new LinkedHashMap<>();
        for (int i = 0; i < dense.size(); i++) {
            score.merge(dense.get(i).turn(), 1.0 / (60 + i + 1), Double::sum);
        }
        for (int i = 0; i < lexical.size(); i++) {
            score.merge(lexical.get(i).turn(), 1.0 / (60 + i + 1), Double::sum);
        }
        List<Ranked> out = new ArrayList<>();
        score.entrySet().stream()
                .sorted((a, b) -> Double.compare(b.getValue(), a.getValue()))
                .forEach(e -> out.add(new Ranked(e.getKey(), Double.NaN, Double.NaN, Double.NaN, Double.NaN)));
        return out;
    }

    /**
     * The server's answer re-ranked as the server would rank it with lexical weight {@code w} (default α, β, γ), from
     * the parts the answer carries: relevance = (1 − w)·similarity + w·lexical.
     */
    static List<Ranked> reranked(List<Ranked> answer, double w, double beta) {
        List<Ranked> out = new ArrayList<>(answer);
        out.sort((a, b) -> Double.compare(total(b, w, beta), total(a, w, beta)));
        return out;
    }

    /** The server's score up to a positive factor (it divides the weights by their sum when they pass 1). */
    private static double total(Ranked r, double w, double beta) {
        double relevance = (1 - w) * r.similarity() + w * r.lexical();
        return 0.7 * relevance + beta * r.freshness() + 0.15 * r.confidence();
    }

    // ---------------------------------------------------------------- HTTP

    /** Each turn's reply: the next turn of the same session (what {@code bm25-next} indexes offline). */
    static Map<Turn, String> replies(Team team) {
        Map<Turn, String> out = new HashMap<>();
        for (Conversation c : team.conversations()) {
            List<Turn> turns = c.turns();
            for (int i = 0; i + 1 < turns.size(); i++) {
                if (turns.get(i + 1).sessionId().equals(turns.get(i).sessionId())) {
                    out.put(turns.get(i), capped(turns.get(i + 1).content()));
                }
            }
        }
        return out;
    }

    private static void ingest(
            HttpClient http,
            String base,
            String token,
            List<Turn> turns,
            Map<Turn, String> replies,
            Map<String, Turn> byMemory)
            throws Exception {
        List<Turn> batch = new ArrayList<>();
        int bytes = 0;
        for (Turn t : turns) {
            int size = (t.content().length() + replies.getOrDefault(t, "").length()) * 3;
            if (!batch.isEmpty() && (batch.size() >= BATCH_ITEMS || bytes + size > BATCH_BYTES)) {
                postBatch(http, base, token, batch, replies, byMemory);
                batch.clear();
                bytes = 0;
            }
            batch.add(t);
            bytes += size;
        }
        if (!batch.isEmpty()) {
            postBatch(http, base, token, batch, replies, byMemory);
        }
    }

    private static void postBatch(
            HttpClient http,
            String base,
            String token,
            List<Turn> batch,
            Map<Turn, String> replies,
            Map<String, Turn> byMemory)
            throws Exception {
        ObjectNode body = JSON.createObjectNode();
        ArrayNode items = body.putArray("memories");
        for (Turn t : batch) {
            ObjectNode item = items.addObject()
                    .put("content", capped(t.content().isBlank() ? "(empty turn)" : t.content()))
                    .put("type", "episode")
                    .put("scope", "team")
                    .put("occurred_at", t.at().toString());
            String reply = replies.get(t);
            if (reply != null) {
                item.put("context", reply);
            }
        }
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + "/memories:batch"))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofMinutes(10))
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("batch answered " + r.statusCode() + ": " + r.body());
        }
        for (JsonNode item : JSON.readTree(r.body()).get("results")) {
            int index = item.get("index").asInt();
            if (!"created".equals(item.path("status").asText())) {
                throw new IllegalStateException("turn " + batch.get(index).turnId() + " was not stored: " + item);
            }
            byMemory.put(item.get("memory").get("id").asText(), batch.get(index));
        }
    }

    private static List<Ranked> ask(
            HttpClient http,
            String base,
            String token,
            Map<String, Team> teamOfConv,
            Map<String, Instant> seesBefore,
            Map<String, Turn> byMemory,
            Question q,
            Double lexicalWeight,
            Double freshnessWeight)
            throws Exception {
        Team team = teamOfConv.get(q.conv());
        ObjectNode body = JSON.createObjectNode().put("query", q.text()).put("top_k", TOP_K);
        if (lexicalWeight != null) {
            ObjectNode weights = body.putObject("weights").put("lexical", lexicalWeight);
            if (freshnessWeight != null && freshnessWeight != DEFAULT_BETA) {
                weights.put("beta", freshnessWeight);
            }
        }
        if (seesBefore.containsKey(q.id())) {
            // as_of is inclusive and turns are at least a second apart: the turns before the cut-off turn
            body.put("as_of", seesBefore.get(q.id()).minusSeconds(1).toString());
        }
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create(base + team.id() + "/recall"))
                        .header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json")
                        .timeout(Duration.ofSeconds(60))
                        .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException("recall answered " + r.statusCode() + ": " + r.body());
        }
        List<Ranked> out = new ArrayList<>();
        for (JsonNode hit : JSON.readTree(r.body()).get("results")) {
            Turn t = byMemory.get(hit.get("memory").get("id").asText());
            out.add(new Ranked(
                    t,
                    hit.get("similarity").asDouble(),
                    hit.has("lexical") ? hit.get("lexical").asDouble() : Double.NaN,
                    hit.get("freshness").asDouble(),
                    hit.get("confidence").asDouble()));
        }
        return out;
    }

    private static void waitUntilUp(HttpClient http, String teamBase, String token, Process server) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IllegalStateException("the server exited with " + server.exitValue());
            }
            try {
                HttpResponse<String> r = http.send(
                        HttpRequest.newBuilder(URI.create(teamBase + "/recall"))
                                .header("Authorization", "Bearer " + token)
                                .header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString("{\"query\":\"warm up\"}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("the server did not answer a recall within 180 s");
    }

    private static String runForLastLine(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        List<String> lines = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                .lines()
                .filter(l -> !l.isBlank())
                .toList();
        if (p.waitFor() != 0 || lines.isEmpty()) {
            throw new IllegalStateException("command failed: " + String.join(" ", command.subList(0, 4)));
        }
        return lines.get(lines.size() - 1).trim();
    }

    // ---------------------------------------------------------------- metrics

    /** Mean figures over a set of questions: turn- and session-level Recall@{1,5,10,20} and turn nDCG@10. */
    record Figures(int n, double[] turnRecall, double[] sessionRecall, double ndcg10) {}

    record Metrics(Figures overall, Map<String, Figures> byType) {

        static Metrics of(Map<Question, List<Ranked>> answers) {
            Map<String, Map<Question, List<Ranked>>> groups = new TreeMap<>();
            answers.forEach((q, r) ->
                    groups.computeIfAbsent(q.type(), t -> new LinkedHashMap<>()).put(q, r));
            Map<String, Figures> byType = new LinkedHashMap<>();
            groups.forEach((t, g) -> byType.put(t, figures(g)));
            return new Metrics(figures(answers), byType);
        }

        static Figures figures(Map<Question, List<Ranked>> answers) {
            double[] turn = new double[KS.length];
            double[] session = new double[KS.length];
            double ndcg = 0;
            for (Map.Entry<Question, List<Ranked>> e : answers.entrySet()) {
                Question q = e.getKey();
                List<Ranked> ranked = e.getValue();
                for (int i = 0; i < KS.length; i++) {
                    turn[i] += turnRecall(q, ranked, KS[i]);
                    session[i] += sessionRecall(q, ranked, KS[i]);
                }
                ndcg += ndcg(q, ranked, 10);
            }
            int n = Math.max(1, answers.size());
            for (int i = 0; i < KS.length; i++) {
                turn[i] /= n;
                session[i] /= n;
            }
            return new Figures(answers.size(), turn, session, ndcg / n);
        }
    }

    static double turnRecall(Question q, List<Ranked> ranked, int k) {
        Set<String> found = new java.util.HashSet<>();
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            String id = ranked.get(i).turn().turnId();
            if (q.turns().contains(id)) {
                found.add(id);
            }
        }
        return found.size() / (double) q.turns().size();
    }

    static double sessionRecall(Question q, List<Ranked> ranked, int k) {
        if (q.sessions().isEmpty()) {
            return 0;
        }
        Set<String> found = new java.util.HashSet<>();
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            String id = ranked.get(i).turn().sessionId();
            if (q.sessions().contains(id)) {
                found.add(id);
            }
        }
        return found.size() / (double) q.sessions().size();
    }

    /** Binary relevance; each gold turn counts once (a few BEAM questions list one twice). */
    static double ndcg(Question q, List<Ranked> ranked, int k) {
        double dcg = 0;
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < Math.min(k, ranked.size()); i++) {
            String id = ranked.get(i).turn().turnId();
            if (q.turns().contains(id) && seen.add(id)) {
                dcg += 1 / (Math.log(i + 2) / Math.log(2));
            }
        }
        double ideal = 0;
        for (int i = 0; i < Math.min(k, q.turns().size()); i++) {
            ideal += 1 / (Math.log(i + 2) / Math.log(2));
        }
        return ideal == 0 ? 0 : dcg / ideal;
    }

    private static void printHalf(String half, Map<String, Metrics> results, ObjectNode node) {
        System.out.printf(
                Locale.ROOT,
                "-- %s half (%d questions) --%n%-14s %6s %6s %6s %6s %8s | %6s %6s %6s %6s%n",
                half,
                results.values().iterator().next().overall().n(),
                "system",
                "T-R@1",
                "T-R@5",
                "T-R@10",
                "T-R@20",
                "nDCG@10",
                "S-R@1",
                "S-R@5",
                "S-R@10",
                "S-R@20");
        results.forEach((name, m) -> {
            Figures f = m.overall();
            printRow(name, f);
            ObjectNode s = node.putObject(name);
            put(s.putObject("overall"), f);
            ObjectNode types = s.putObject("by_type");
            m.byType().forEach((t, tf) -> put(types.putObject(t), tf));
        });
        // per question type: turn Recall@10 of every system side by side
        List<String> names = new ArrayList<>(results.keySet());
        StringBuilder header = new StringBuilder(String.format(Locale.ROOT, "%-30s %4s", "turn R@10 by type", "n"));
        names.forEach(n -> header.append(String.format(Locale.ROOT, " %13s", n)));
        System.out.println(header);
        for (String type : results.get(names.get(0)).byType().keySet()) {
            StringBuilder row = new StringBuilder(String.format(
                    Locale.ROOT,
                    "%-30s %4d",
                    type,
                    results.get(names.get(0)).byType().get(type).n()));
            names.forEach(n -> row.append(String.format(
                    Locale.ROOT, " %13.3f", results.get(n).byType().get(type).turnRecall()[2])));
            System.out.println(row);
        }
    }

    private static void printRow(String name, Figures f) {
        System.out.printf(
                Locale.ROOT,
                "%-14s %6.3f %6.3f %6.3f %6.3f %8.3f | %6.3f %6.3f %6.3f %6.3f%n",
                name,
                f.turnRecall()[0],
                f.turnRecall()[1],
                f.turnRecall()[2],
                f.turnRecall()[3],
                f.ndcg10(),
                f.sessionRecall()[0],
                f.sessionRecall()[1],
                f.sessionRecall()[2],
                f.sessionRecall()[3]);
    }

    private static void put(ObjectNode o, Figures f) {
        o.put("n", f.n());
        for (int i = 0; i < KS.length; i++) {
            o.put("turn_r@" + KS[i], f.turnRecall()[i]);
        }
        o.put("turn_ndcg@10", f.ndcg10());
        for (int i = 0; i < KS.length; i++) {
            o.put("session_r@" + KS[i], f.sessionRecall()[i]);
        }
    }

    // ---------------------------------------------------------------- plumbing

    private static Process startServer(String javaBin, Path jar, Path data, int port, String model, Path log)
            throws IOException {
        return new ProcessBuilder(
                        javaBin,
                        "-Xmx1g",
                        "-Dcairn.data-dir=" + data,
                        "-Dquarkus.http.port=" + port,
                        "-Dcairn.embedding.model=" + model,
                        "-jar",
                        jar.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
    }

    private static void stop(Process server) throws InterruptedException {
        server.destroy();
        if (!server.waitFor(30, TimeUnit.SECONDS)) {
            server.destroyForcibly().waitFor();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    private static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[recall-bench] " + format + "%n", args);
    }

    static int[] ks() {
        return Arrays.copyOf(KS, KS.length);
    }
}
