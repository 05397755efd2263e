package dev.cairn.bench;

import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.embedded.SqliteMemoryStore;
import dev.cairn.embedded.SqliteSessionStore;
import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.consolidate.FactComparison;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.recall.RecallDraft;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.recall.RecallSettings;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.RuleBasedExtractor;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.SessionService;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;

/**
 * {@code session-bench [--sessions 40] [--facts 1000] [--work-dir DIR]}: the session-memory benchmark on the embedded
 * default (SQLite, Lucene, the ONNX model, extractive summarizer, rule-based extractor), in-process so that it
 * measures the use cases rather than HTTP.
 *
 * <ol>
 *   <li>Extraction latency per message (the extractor on one message; the whole append) and per session end
 *       (extraction, consolidation and the memory writes), p50 and p95.</li>
 *   <li>Rolling-summary size against the size of the text folded into it, and the share of the folded messages'
 *       names and numbers the summary kept.</li>
 *   <li>A 1,000-fact stream with 30 % repeats and 10 % contradictions written twice — plain append (the
 *       {@code POST /memories} path) and consolidation — then one recall per contradicted subject: records stored,
 *       repeats stored more than once, stale facts returned, and whether the current fact was found.</li>
 * </ol>
 */
public final class SessionBench {

    private static final Id TEAM = new Id("bench");
    private static final Caller CALLER = new Caller(new Id("bench-user"), Set.of(TEAM));

    private SessionBench() {}

    static final List<String> OPTIONS = List.of("--sessions", "--facts", "--work-dir");
    static final String USAGE = """
            usage: session-bench [--sessions N] [--facts N] [--work-dir DIR]
            Times session memory on the embedded stack, in-process: extraction, rolling summaries, and a fact stream
            written by plain append and by consolidation.
              --sessions N    simulated sessions (default 40)
              --facts N       facts in the stream with repeats and contradictions (default 1000)
              --work-dir DIR  stores of the run (default a new temporary directory)
            example: java -jar functions/bench/target/cairn-bench.jar session-bench --sessions 20
            """;

    public static int run(List<String> args) {
        return Options.run("session-bench", USAGE, OPTIONS, args, System.out, System.err, o -> {
            int sessions = o.positive("--sessions", 40);
            int facts = o.positive("--facts", 1000);
            Path work = o.path("--work-dir", null);
            try {
                if (work == null) {
                    work = Files.createTempDirectory("cairn-session-bench-");
                }
                OnnxEmbedder embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
                sessions(work.resolve("sessions"), embedder, sessions);
                stream(work, embedder, facts);
                return 0;
            } catch (Exception e) {
                return Failures.report("session-bench", e);
            }
        });
    }

    /** The stores and use cases of one run, on their own directory. */
    private record Stack(
            SqliteMemoryStore store,
            LuceneVectorIndex index,
            MemoryService memories,
            Consolidator consolidator,
            RecallService recall,
            SqliteSessionStore sessionStore,
            SessionService sessions)
            implements AutoCloseable {

        static Stack open(Path dir, OnnxEmbedder embedder) {
            SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"));
            LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("index"));
            Indexer indexer = new Indexer(store, index, embedder);
            SecretScanner scanner = SecretScanner.bundled();
            SecretGate gate = SecretGate.uniform(scanner, SecretPolicy.REDACT);
            Clock clock = Clock.systemUTC();
            MemoryService memories = new MemoryService(store, indexer, clock, MemoryLimits.DEFAULTS, gate);
            Consolidator consolidator = new Consolidator(
                    memories, store, index, embedder, new FactComparison(FactComparison.Thresholds.defaults()), 24);
            RecallService recall = new RecallService(
                    store, index, embedder, indexer, clock, RecallSettings.DEFAULTS, Runnable::run, gate);
            SqliteSessionStore sessionStore = new SqliteSessionStore(dir.resolve("sessions.db"));
            SessionService sessions = new SessionService(
                    sessionStore,
                    new ExtractiveSummarizer(),
                    new RuleBasedExtractor(scanner),
                    memories,
                    consolidator,
                    gate,
                    clock,
                    SessionService.Limits.defaults());
            return new Stack(store, index, memories, consolidator, recall, sessionStore, sessions);
        }

        @Override
        public void close() throws Exception {
            sessionStore.close();
            index.close();
            store.close();
        }
    }

    // ---- 1 and 2: sessions --------------------------------------------------------------------------------------

    private static final String[] SERVICES = {
        "billing",
        "search",
        "checkout",
        "payments",
        "inventory",
        "shipping",
        "catalog",
        "auth",
        "notifications",
        "analytics",
        "reporting",
        "ledger",
        "pricing",
        "recommendations",
        "reviews",
        "gateway",
        "scheduler",
        "ingestion",
        "export",
        "onboarding",
        "messaging",
        "media",
        "thumbnails",
        "geocoding",
        "fraud",
        "loyalty",
        "subscriptions",
        "invoicing",
        "refunds",
        "tax",
        "compliance",
        "audit",
        "identity",
        "profile",
        "feed",
        "ranking",
        "crawler",
        "indexer",
        "mailer",
        "importer"
    };
    private static final String[] PEOPLE = {"Dana", "Wei", "Priya", "Jonas", "Amara", "Kenji", "Lucía", "Omar"};

    private static void sessions(Path dir, OnnxEmbedder embedder, int count) throws Exception {
        Files.createDirectories(dir);
        Random random = new Random(2026);
        RuleBasedExtractor extractor = new RuleBasedExtractor(SecretScanner.bundled());
        List<Double> extractUs = new ArrayList<>();
        List<Double> appendMs = new ArrayList<>();
        List<Double> endMs = new ArrayList<>();
        long foldedChars = 0;
        long summaryChars = 0;
        long entities = 0;
        long entitiesKept = 0;
        int extracted = 0;
        try (Stack stack = Stack.open(dir, embedder)) {
            for (int s = 0; s < count; s++) {
                Id session = new Id(String.format(Locale.ROOT, "s%04d", s));
                List<String> said = conversation(random, 40);
                for (int i = 0; i < said.size(); i++) {
                    String role = i % 2 == 0 ? "user" : "assistant";
                    SessionMessage probe = new SessionMessage(
                            new Id("probe"),
                            i + 1,
                            role.equals("user") ? SessionMessage.Role.USER : SessionMessage.Role.ASSISTANT,
                            said.get(i),
                            Instant.now());
                    long t0 = System.nanoTime();
                    extractor.extract(List.of(probe));
                    extractUs.add((System.nanoTime() - t0) / 1e3);
                    long t1 = System.nanoTime();
                    stack.sessions()
                            .append(CALLER, TEAM, session, new SessionService.MessageDraft(role, said.get(i), null));
                    appendMs.add((System.nanoTime() - t1) / 1e6);
                }
                SessionService.View view = stack.sessions().get(CALLER, TEAM, session);
                long foldedThrough = view.messageCount() - view.recentMessages().size();
                StringBuilder folded = new StringBuilder();
                for (int i = 0; i < foldedThrough; i++) {
                    folded.append(said.get(i)).append(' ');
                }
                foldedChars += folded.length();
                summaryChars += view.rollingSummary().length();
                Set<String> names = ExtractiveSummarizer.entitiesAndNumbers(folded.toString());
                entities += names.size();
                entitiesKept +=
                        names.stream().filter(view.rollingSummary()::contains).count();
                long t2 = System.nanoTime();
                extracted +=
                        stack.sessions().end(CALLER, TEAM, session).extracted().size();
                endMs.add((System.nanoTime() - t2) / 1e6);
            }
        }
        log("sessions: %d of 40 messages; %d facts extracted", count, extracted);
        log(
                "extraction per message (rule-based extractor): p50 %.1f µs, p95 %.1f µs",
                pct(extractUs, 50), pct(extractUs, 95));
        log(
                "append per message (store, fold, explicit remember): p50 %.2f ms, p95 %.2f ms",
                pct(appendMs, 50), pct(appendMs, 95));
        log(
                "session end (extract 40 messages, consolidate, write): p50 %.1f ms, p95 %.1f ms",
                pct(endMs, 50), pct(endMs, 95));
        log(
                "rolling summary: %d chars for %d folded chars (%.2f of the folded size); names and numbers kept %d/%d"
                        + " (%.1f %%)",
                summaryChars,
                foldedChars,
                (double) summaryChars / foldedChars,
                entitiesKept,
                entities,
                100.0 * entitiesKept / Math.max(1, entities));
    }

    /** A synthetic working conversation: statements worth keeping, chatter, temporary state, assistant replies. */
    private static List<String> conversation(Random r, int messages) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < messages; i++) {
            String svc = SERVICES[r.nextInt(SERVICES.length)];
            String who = PEOPLE[r.nextInt(PEOPLE.length)];
            Attribute a = ATTRIBUTES[r.nextInt(ATTRIBUTES.length)];
            String value = a.values()[r.nextInt(a.values().length)];
            if (i % 2 == 1) {
                out.add(
                        switch (r.nextInt(3)) {
                            case 0 -> "Understood. I will update the " + svc + " configuration accordingly.";
                            case 1 -> "Done: the " + svc + " pipeline passed in " + (40 + r.nextInt(200)) + " seconds.";
                            default -> "Here is the diff for " + svc + "; " + (1 + r.nextInt(30)) + " files changed.";
                        });
                continue;
            }
            out.add(
                    switch (r.nextInt(8)) {
                        case 0 ->
                            "We decided that the " + svc + " service uses " + value + " for its " + a.name() + ".";
                        case 1 -> "I prefer " + value + " when I work on " + svc + ".";
                        case 2 -> "Remember that " + who + " owns the " + svc + " service.";
                        case 3 -> "Our " + svc + " service runs on " + value + " in production.";
                        case 4 -> "Thanks, looks good!";
                        case 5 -> "For now I'm debugging " + svc + " on my laptop.";
                        case 6 -> "Can you check why " + svc + " failed on build " + (1000 + r.nextInt(9000)) + "?";
                        default ->
                            who + " said the " + svc + " dashboard shows " + (10 + r.nextInt(90)) + " errors per hour.";
                    });
        }
        return out;
    }

    // ---- 3: consolidation against plain append ------------------------------------------------------------------

    private record Attribute(String name, String[] values) {}

    private static final Attribute[] ATTRIBUTES = {
        new Attribute("database", new String[] {"PostgreSQL 16", "PostgreSQL 17", "MySQL 8", "DynamoDB", "MongoDB 7"}),
        new Attribute("cache", new String[] {"Redis 7", "Memcached 1.6", "Valkey 8", "Caffeine"}),
        new Attribute("message queue", new String[] {"Kafka 3.7", "RabbitMQ 3.13", "SQS", "NATS 2.10"}),
        new Attribute("deployment region", new String[] {"eu-west-1", "us-east-1", "eu-central-1", "ap-southeast-2"}),
        new Attribute("programming language", new String[] {"Java 21", "Kotlin 2.0", "Go 1.23", "Python 3.12"}),
        new Attribute("CI system", new String[] {"Jenkins", "GitHub Actions", "GitLab CI", "Buildkite"}),
        new Attribute("monitoring", new String[] {"Datadog", "Grafana", "New Relic", "Prometheus"}),
        new Attribute("logging", new String[] {"Loki", "CloudWatch Logs", "Elasticsearch 8", "Splunk"}),
        new Attribute("container platform", new String[] {"ECS Fargate", "EKS 1.30", "Lambda", "Nomad"}),
        new Attribute("web framework", new String[] {"Quarkus 3.15", "Spring Boot 3.3", "Micronaut 4", "Ktor 3"}),
        new Attribute("build tool", new String[] {"Maven 3.9", "Gradle 8.10", "Bazel 7", "sbt 1.10"}),
        new Attribute("feature flags", new String[] {"LaunchDarkly", "Unleash", "Flagsmith", "ConfigCat"}),
        new Attribute("secrets store", new String[] {"Secrets Manager", "Vault", "Parameter Store", "Doppler"}),
        new Attribute("API gateway", new String[] {"Kong 3.7", "API Gateway", "Envoy 1.31", "NGINX 1.27"}),
        new Attribute("on-call tool", new String[] {"PagerDuty", "Opsgenie", "incident.io", "Grafana OnCall"})
    };

    private record Statement(String subject, String content, Instant at, boolean contradiction) {}

    private static String say(String svc, Attribute a, String value) {
        return "The " + svc + " service uses " + value + " for its " + a.name() + ".";
    }

    /**
     * {@code n} statements: 60 % new subjects (service × attribute), 30 % repeats of an earlier statement (sometimes
     * reworded in case and punctuation), 10 % contradictions (an earlier subject with a new value, said later).
     */
    private static List<Statement> stream(int n, Random r) {
        int fresh = n * 6 / 10;
        int contradictions = n / 10;
        int repeats = n - fresh - contradictions;
        List<String[]> subjects = new ArrayList<>();
        for (String svc : SERVICES) {
            for (int a = 0; a < ATTRIBUTES.length; a++) {
                subjects.add(new String[] {svc, String.valueOf(a)});
            }
        }
        java.util.Collections.shuffle(subjects, r);
        List<Statement> out = new ArrayList<>();
        Map<String, String> current = new HashMap<>();
        Map<String, String[]> bySubject = new HashMap<>();
        Instant t = Instant.parse("2026-06-01T00:00:00Z");
        List<Character> plan = new ArrayList<>();
        for (int i = 0; i < repeats; i++) {
            plan.add('r');
        }
        for (int i = 0; i < contradictions; i++) {
            plan.add('c');
        }
        java.util.Collections.shuffle(plan, r);
        int next = 0;
        int p = 0;
        Set<String> contradicted = new HashSet<>();
        for (int i = 0; i < n; i++) {
            t = t.plusSeconds(3600);
            // new subjects first in each stretch, so repeats and contradictions always have something to refer to
            boolean takeFresh = next < fresh && (out.size() < 20 || p >= plan.size() || r.nextDouble() < 0.6);
            if (takeFresh) {
                String[] s = subjects.get(next++);
                Attribute a = ATTRIBUTES[Integer.parseInt(s[1])];
                String key = s[0] + "/" + a.name();
                String content = say(s[0], a, a.values()[r.nextInt(a.values().length)]);
                current.put(key, content);
                bySubject.put(key, s);
                out.add(new Statement(key, content, t, false));
                continue;
            }
            char kind = plan.get(p++);
            List<String> known = new ArrayList<>(current.keySet());
            java.util.Collections.sort(known);
            if (kind == 'r') {
                String key = known.get(r.nextInt(known.size()));
                String content = current.get(key);
                if (r.nextBoolean()) {
                    content = content.substring(0, content.length() - 1) + "!"; // the same fact, said again
                }
                out.add(new Statement(key, content, t, false));
            } else {
                String key;
                do {
                    key = known.get(r.nextInt(known.size()));
                } while (contradicted.contains(key) && contradicted.size() < known.size());
                contradicted.add(key);
                String[] s = bySubject.get(key);
                Attribute a = ATTRIBUTES[Integer.parseInt(s[1])];
                String value;
                do {
                    value = a.values()[r.nextInt(a.values().length)];
                } while (current.get(key).contains(" " + value + " "));
                String content = say(s[0], a, value);
                current.put(key, content);
                out.add(new Statement(key, content, t, true));
            }
        }
        return out;
    }

    private static void stream(Path work, OnnxEmbedder embedder, int n) throws Exception {
        List<Statement> statements = stream(n, new Random(7));
        Map<String, String> latest = new HashMap<>();
        Map<String, Set<String>> outdated = new HashMap<>();
        for (Statement s : statements) {
            String before = latest.put(s.subject(), s.content());
            if (s.contradiction() && before != null) {
                outdated.computeIfAbsent(s.subject(), k -> new HashSet<>()).add(norm(before));
            }
        }
        long repeats = statements.stream().filter(s -> !s.contradiction()).count()
                - statements.stream()
                        .filter(s -> !s.contradiction())
                        .map(s -> s.subject())
                        .distinct()
                        .count();
        log(
                "stream: %d statements — %d contradictions, %d repeats, %d subjects",
                statements.size(),
                statements.stream().filter(Statement::contradiction).count(),
                repeats,
                latest.size());

        for (String mode : List.of("plain", "consolidate")) {
            Path dir = work.resolve("stream-" + mode);
            Files.createDirectories(dir);
            try (Stack stack = Stack.open(dir, embedder)) {
                Map<Consolidator.Action, Integer> actions = new java.util.EnumMap<>(Consolidator.Action.class);
                long t0 = System.nanoTime();
                for (Statement s : statements) {
                    MemoryDraft draft = new MemoryDraft(
                            s.content(), "environment", "team", null, null, 0.8, s.at().toString(), null, null);
                    if (mode.equals("plain")) {
                        stack.memories().create(CALLER, TEAM, draft);
                    } else {
                        actions.merge(
                                stack.consolidator().write(CALLER, TEAM, draft).action(), 1, Integer::sum);
                    }
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                long records = stack.store().count(TEAM);
                Map<String, Integer> copies = new HashMap<>();
                int current = 0;
                String cursor = null;
                do {
                    var page = stack.memories()
                            .list(
                                    CALLER,
                                    TEAM,
                                    new dev.cairn.model.memory.ListDraft(null, null, null, null, 500, cursor));
                    for (Memory m : page.memories()) {
                        copies.merge(norm(m.content()), 1, Integer::sum);
                        current += m.isCurrent() ? 1 : 0;
                    }
                    cursor = page.nextCursor();
                } while (cursor != null);
                long storedTwice = copies.values().stream()
                        .filter(c -> c > 1)
                        .mapToLong(c -> c - 1)
                        .sum();
                int stale = 0;
                int found = 0;
                for (Map.Entry<String, Set<String>> e : outdated.entrySet()) {
                    String[] parts = e.getKey().split("/", 2);
                    List<RecallResult.Hit> hits = stack.recall()
                            .recall(
                                    CALLER,
                                    TEAM,
                                    new RecallDraft(
                                            "Which " + parts[1] + " does the " + parts[0] + " service use?",
                                            5,
                                            null,
                                            null,
                                            null,
                                            null,
                                            null,
                                            null,
                                            null))
                            .hits();
                    boolean hasCurrent = false;
                    for (RecallResult.Hit h : hits) {
                        String c = norm(h.memory().content());
                        stale += e.getValue().contains(c) ? 1 : 0;
                        hasCurrent |= c.equals(norm(latest.get(e.getKey())));
                    }
                    found += hasCurrent ? 1 : 0;
                }
                log(
                        "%-11s %6.1f writes/s; %d records (%d current); repeats stored more than once: %d; recall of %d "
                                + "contradicted subjects (top 5): %d stale facts returned, current fact found for %d%s",
                        mode,
                        statements.size() / seconds,
                        records,
                        current,
                        storedTwice,
                        outdated.size(),
                        stale,
                        found,
                        actions.isEmpty() ? "" : "; actions " + actions);
            }
        }
    }

    /** Case and final punctuation do not make another statement. */
    private static String norm(String s) {
        return s.toLowerCase(Locale.ROOT).replaceAll("[.!]+$", "");
    }

    private static double pct(List<Double> values, int p) {
        return Bench.percentile(values.stream().mapToDouble(Double::doubleValue).toArray(), p);
    }

    private static void log(String format, Object... args) {
        System.out.printf(Locale.ROOT, "[session-bench] " + format + "%n", args);
    }
}
