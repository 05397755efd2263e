package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallSettings;
import dev.cairn.model.recall.Scorer;
import dev.cairn.model.testkit.Memories;
import java.net.URI;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Both index adapters feed the one fusion formula of shared-model: on the same memories (real BGE vectors, the same
 * text) the embedded Lucene index and a real OpenSearch node with the k-NN plugin hand over the same candidates with
 * the same cosine and BM25 scores, so recall ranks alike on either backend.
 */
@ExtendWith(OpenSearchNode.class)
class FusionParityIT {

    private static final Id TEAM = new Id("parity");
    private static final Id USER = new Id("alice");
    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");
    private static final List<String> MEMORIES = List.of(
            "We use PostgreSQL 16 for every new service",
            "Alice prefers dark mode and vim keybindings in every editor",
            "The CI pipeline runs on GitHub Actions with self-hosted runners",
            "Invoice INV-20417 from Northwind was paid on 3 March",
            "Bob's flight to Lisbon leaves at 07:40 on Friday",
            "The staging database is a read replica of production, refreshed nightly",
            "Deploys happen on Tuesdays and Thursdays after the stand-up",
            "Marta owns the billing service; page her for payment incidents",
            "The API rate limit is 600 requests per minute per token",
            "Our Kafka cluster keeps seven days of retention on the orders topic",
            "Customer Zephyr Logistics asked for SSO through Okta",
            "Use pnpm, not npm, in the web repository",
            // Chinese is cut into overlapping bigrams on both backends (cjk_bigram on OpenSearch)
            "周末我们去咖啡馆写代码",
            "咖喱很辣，桌子是啡色的",
            "上海办公室的会议室在三楼",
            "王芳负责支付服务的上线");
    private static final List<String> QUERIES = List.of(
            "what database does the team prefer?",
            "INV-20417",
            "who should I call when payments break?",
            "Zephyr Logistics SSO",
            "how long do we keep orders in Kafka",
            "when is Bob flying to Lisbon",
            "which package manager for the web repo",
            "seat 14C",
            "咖啡",
            "王芳负责什么",
            "上海办公室在哪");
    /**
     * Bob's flight, written with a context (the reply it got): what the index sees is {@link Memory#lexicalText}, as
     * the Indexer hands it over, and only the context holds "14C".
     */
    private static final Memory WITH_CONTEXT = Memories.memory()
            .id("m04")
            .team(TEAM)
            .user(null)
            .content("Bob's flight to Lisbon leaves at 07:40 on Friday")
            .context("Booked: aisle seat 14C, one checked bag.")
            .build();
    /** The memory that holds 咖 and 啡 but not the word 咖啡: a character-by-character analyser would match it. */
    private static final Id LOOSE_CHARACTERS = new Id("m13");

    private static ExecutorService pool;
    private static OnnxEmbedder embedder;

    @BeforeAll
    static void loadModel() {
        pool = Executors.newFixedThreadPool(2);
        embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, pool);
    }

    @AfterAll
    static void stop() {
        pool.shutdown();
    }

    @Test
    void bothBackends_rankTheSameMemoriesInTheSameOrder(@TempDir Path dir) {
        List<float[]> vectors = embedder.embedDocuments(MEMORIES);
        List<VectorIndex.Entry> entries = new ArrayList<>();
        for (int i = 0; i < MEMORIES.size(); i++) {
            entries.add(new VectorIndex.Entry(
                    new VectorIndex.Key(TEAM, new Id(String.format("m%02d", i)), 1),
                    Scope.TEAM,
                    null,
                    MemoryType.FACT,
                    List.of(),
                    i == 4 ? WITH_CONTEXT.lexicalText() : MEMORIES.get(i),
                    NOW.minusSeconds(3600L * i),
                    vectors.get(i),
                    embedder.modelId()));
        }
        OpenSearchVectorIndex openSearch = OpenSearchVectorIndex.plainHttp(
                URI.create(OpenSearchNode.url()),
                OpenSearchVectorIndex.Settings.localNode(
                        "parity-" + UUID.randomUUID().toString().substring(0, 8)));
        try (LuceneVectorIndex lucene = new LuceneVectorIndex(dir.resolve("index"))) {
            lucene.upsert(entries);
            openSearch.upsert(entries);
            VectorIndex.Filter filter = new VectorIndex.Filter(TEAM, USER, null, Set.of(), Set.of());
            int lexicalFirsts = 0;
            for (String query : QUERIES) {
                VectorIndex.Search search =
                        new VectorIndex.Search(filter, embedder.embedQuery(query), embedder.modelId(), query, 50);
                List<RecallResult.Ranked> onLucene = ranked(lucene.search(search), entries);
                List<RecallResult.Ranked> onOpenSearch = ranked(openSearch.search(search), entries);

                assertThat(ids(onOpenSearch)).as(query).isEqualTo(ids(onLucene));
                for (int i = 0; i < onLucene.size(); i++) {
                    Scorer.Score a = onLucene.get(i).score();
                    Scorer.Score b = onOpenSearch.get(i).score();
                    assertThat(b.similarity()).as(query).isCloseTo(a.similarity(), within(1e-4));
                    assertThat(b.lexical()).as(query).isCloseTo(a.lexical(), within(1e-4));
                }
                if (query.equals("咖啡")) {
                    for (List<RecallResult.Ranked> ranking : List.of(onLucene, onOpenSearch)) {
                        assertThat(ranking.stream()
                                        .filter(r -> r.id().equals(LOOSE_CHARACTERS))
                                        .map(r -> r.score().lexical()))
                                .as("咖啡 on either backend matches words, not loose characters")
                                .allMatch(lexical -> lexical == 0.0);
                        assertThat(ranking.stream()
                                        .filter(r -> r.id().equals(new Id("m12")))
                                        .map(r -> r.score().lexical()))
                                .containsExactly(1.0);
                    }
                }
                if (query.equals("seat 14C")) {
                    for (List<RecallResult.Ranked> ranking : List.of(onLucene, onOpenSearch)) {
                        assertThat(ranking.get(0).id())
                                .as("found by its context")
                                .isEqualTo(new Id("m04"));
                        assertThat(ranking.get(0).score().lexical()).isEqualTo(1.0);
                    }
                }
                if (onLucene.get(0).score().lexical() == 1.0) {
                    lexicalFirsts++;
                }
            }
            // not a vacuous comparison: the lexical part is live and decides the head of several rankings
            assertThat(lexicalFirsts).isGreaterThanOrEqualTo(3);
        }
    }

    /** What RecallService does with an adapter's candidates: normalise BM25 over the pool, score, best first. */
    private static List<RecallResult.Ranked> ranked(
            List<VectorIndex.Candidate> candidates, List<VectorIndex.Entry> entries) {
        Map<Id, Instant> occurred = new HashMap<>();
        entries.forEach(e -> occurred.put(e.key().id(), e.occurredAt()));
        Scorer scorer = new Scorer(RecallSettings.DEFAULTS.weights());
        Map<Id, Double> lexical = Scorer.normalisedLexical(candidates);
        List<RecallResult.Ranked> out = new ArrayList<>();
        for (VectorIndex.Candidate c : candidates) {
            out.add(new RecallResult.Ranked(
                    c.id(), scorer.score(c.similarity(), lexical.get(c.id()), occurred.get(c.id()), 1.0, NOW)));
        }
        out.sort(RecallResult.Ranked.BEST_FIRST);
        return out;
    }

    private static List<Id> ids(List<RecallResult.Ranked> ranked) {
        return ranked.stream().map(RecallResult.Ranked::id).toList();
    }
}
