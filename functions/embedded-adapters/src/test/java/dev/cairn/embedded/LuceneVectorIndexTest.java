package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex.Candidate;
import dev.cairn.model.port.VectorIndex.Entry;
import dev.cairn.model.port.VectorIndex.Filter;
import dev.cairn.model.port.VectorIndex.Key;
import dev.cairn.model.port.VectorIndex.Search;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LuceneVectorIndexTest {

    private static final String MODEL = "test-model";

    @TempDir
    Path dir;

    private static Entry entry(String team, String id, long version, Scope scope, String user, String text, float[] v) {
        return new Entry(
                new Key(new Id(team), new Id(id), version),
                scope,
                user == null ? null : new Id(user),
                MemoryType.FACT,
                List.of(),
                text,
                Instant.parse("2026-01-01T00:00:00Z"),
                v,
                MODEL);
    }

    private static float[] vec(float... v) {
        return v;
    }

    private static List<String> ids(List<Candidate> cs) {
        return cs.stream().map(c -> c.id().value()).toList();
    }

    private static Candidate byId(List<Candidate> cs, String id) {
        return cs.stream().filter(c -> c.id().value().equals(id)).findFirst().orElseThrow();
    }

    private static Search search(String team, String viewer, Scope scope, float[] v, int k) {
        return new Search(new Filter(new Id(team), new Id(viewer), scope, Set.of(), Set.of()), v, MODEL, null, k);
    }

    @Test
    void search_shouldNeverReturnAnotherTeamsMemories_evenWhenTheyAreNearest() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            List<Entry> entries = new ArrayList<>();
            // 50 near-identical vectors in team "evil", one distant vector in team "acme"
            for (int i = 0; i < 50; i++) {
                entries.add(entry("evil", "e" + i, 1, Scope.TEAM, null, "x", vec(1, 0.001f * i, 0)));
            }
            entries.add(entry("acme", "a1", 1, Scope.TEAM, null, "x", vec(0, 1, 0)));
            index.upsert(entries);
            List<Candidate> hits = index.search(search("acme", "alice", null, vec(1, 0, 0), 5));
            assertThat(ids(hits)).containsExactly("a1");
            assertThat(hits.get(0).similarity()).isCloseTo(0.0, org.assertj.core.data.Offset.offset(1e-5));
        }
    }

    @Test
    void search_shouldShowUserMemoriesOnlyToTheirOwner() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            index.upsert(List.of(
                    entry("acme", "mine", 1, Scope.USER, "alice", "x", vec(1, 0, 0)),
                    entry("acme", "bobs", 1, Scope.USER, "bob", "x", vec(1, 0, 0)),
                    entry("acme", "team", 1, Scope.TEAM, null, "x", vec(1, 0, 0))));
            assertThat(ids(index.search(search("acme", "alice", null, vec(1, 0, 0), 10))))
                    .containsExactlyInAnyOrder("mine", "team");
            assertThat(ids(index.search(search("acme", "alice", Scope.USER, vec(1, 0, 0), 10))))
                    .containsExactly("mine");
            assertThat(ids(index.search(search("acme", "alice", Scope.TEAM, vec(1, 0, 0), 10))))
                    .containsExactly("team");
        }
    }

    @Test
    void search_shouldAddBm25Candidates_withTheirExactCosine() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            index.upsert(List.of(
                    entry("acme", "near", 1, Scope.TEAM, null, "nothing in common", vec(1, 0, 0)),
                    entry("acme", "lexical", 1, Scope.TEAM, null, "PostgreSQL sixteen", vec(0.6f, 0.8f, 0))));
            List<Candidate> hits = index.search(new Search(
                    new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                    vec(1, 0, 0),
                    MODEL,
                    "postgresql",
                    1));
            assertThat(ids(hits)).containsExactlyInAnyOrder("near", "lexical");
            Candidate lexical = byId(hits, "lexical");
            assertThat(lexical.similarity()).isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-5));
            assertThat(lexical.lexical()).isPositive();
        }
    }

    private static final Filter ACME = new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of());

    @Test
    void aSearchStartedBeforeItsVector_answersWhatTheWholeSearchAnswers() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            Random random = new Random(7);
            List<Entry> entries = new ArrayList<>();
            String[] words = {"postgres", "kotlin", "maven", "deploy", "review", "latency"};
            for (int i = 0; i < 300; i++) {
                float[] v = {random.nextFloat(), random.nextFloat(), random.nextFloat(), random.nextFloat()};
                String text = words[i % words.length] + " " + words[(i / 6) % words.length] + " note " + i;
                entries.add(entry("acme", "m" + i, 1, Scope.TEAM, null, text, v));
            }
            index.upsert(entries);
            float[] query = {0.3f, 0.9f, 0.1f, 0.4f};
            List<Candidate> whole = index.search(new Search(ACME, query, MODEL, "kotlin review", 20));
            List<Candidate> started;
            try (var begun = index.start(ACME, MODEL, "kotlin review", 20)) {
                started = begun.finish(query);
            }
            assertThat(started).isEqualTo(whole);
            assertThat(started).anyMatch(c -> c.lexical() > 0);
        }
    }

    @Test
    void aStartedSearchThatNeverFinishes_releasesItsView_andLaterWritesAreSearchable() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            index.upsert(List.of(entry("acme", "old", 1, Scope.TEAM, null, "kotlin", vec(1, 0, 0))));
            for (int i = 0; i < 50; i++) {
                index.start(ACME, MODEL, "kotlin", 5).close(); // e.g. the query's embedding failed
            }
            var begun = index.start(ACME, MODEL, "kotlin", 5);
            // a write after the start is not in the started search's point-in-time view, but in the next one
            index.upsert(List.of(entry("acme", "new", 1, Scope.TEAM, null, "kotlin", vec(0, 1, 0))));
            assertThat(ids(begun.finish(vec(1, 0, 0)))).containsExactly("old");
            begun.close();
            begun.close(); // twice is harmless
            assertThat(ids(index.search(new Search(ACME, vec(1, 0, 0), MODEL, "kotlin", 5))))
                    .containsExactlyInAnyOrder("old", "new");
        }
    }

    @Test
    void start_shouldRefuseAnotherModel_beforeRunningAnything() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            index.upsert(List.of(entry("acme", "m1", 1, Scope.TEAM, null, "x", vec(1, 0, 0))));
            assertThatThrownBy(() -> index.start(ACME, "other-model", "x", 3))
                    .isInstanceOf(EmbeddingModelMismatch.class);
        }
    }

    private void writeCoffeeAndCurry(LuceneVectorIndex index) {
        index.upsert(List.of(
                entry("acme", "coffee", 1, Scope.TEAM, null, "周末我们去咖啡馆写代码", vec(1, 0, 0)),
                // 咖 and 啡 both occur, but never together: the word 咖啡 is not here
                entry("acme", "curry", 1, Scope.TEAM, null, "咖喱很辣，桌子是啡色的", vec(0, 1, 0))));
    }

    @Test
    void chineseText_isMatchedByItsWords_notByLooseCharacters() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.analyzerName()).isEqualTo(LuceneVectorIndex.ANALYZER_CJK_BIGRAMS);
            writeCoffeeAndCurry(index);
            assertThat(ids(index.lexicalSearch(ACME, "咖啡", 10))).containsExactly("coffee");
            // Latin text is cut as before: lower-cased words, stop words dropped
            index.upsert(List.of(entry("acme", "pg", 1, Scope.TEAM, null, "We use PostgreSQL 16", vec(0, 0, 1))));
            assertThat(ids(index.lexicalSearch(ACME, "the POSTGRESQL", 10))).containsExactly("pg");
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.analyzerName()).isEqualTo(LuceneVectorIndex.ANALYZER_CJK_BIGRAMS);
        }
    }

    @Test
    void anIndexWrittenBeforeTheAnalyserWasRecorded_keepsCuttingQueriesAsItsTermsWereCut() throws Exception {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            index.upsert(List.of(entry("acme", "first", 1, Scope.TEAM, null, "first", vec(0, 0, 1))));
        }
        // what an index of the previous release holds: the model in the commit, no analyser named
        try (org.apache.lucene.store.Directory d = org.apache.lucene.store.FSDirectory.open(dir);
                org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(
                        d, new org.apache.lucene.index.IndexWriterConfig(TextAnalyzers.standard()))) {
            w.setLiveCommitData(java.util.Map.of("cairn.model", MODEL).entrySet());
            w.commit();
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.analyzerName()).isEqualTo(LuceneVectorIndex.ANALYZER_STANDARD);
            writeCoffeeAndCurry(index);
            // single characters, as the standard analyser cuts Chinese: both memories hold 咖 and 啡
            assertThat(ids(index.lexicalSearch(ACME, "咖啡", 10))).containsExactlyInAnyOrder("coffee", "curry");
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.analyzerName()).isEqualTo(LuceneVectorIndex.ANALYZER_STANDARD);
        }
    }

    @Test
    void aNewIndex_comparesByDotProduct_andAnswersExactCosines_withoutReScoring() {
        Random r = new Random(7);
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            float[] v = new float[16];
            for (int d = 0; d < v.length; d++) {
                v[d] = (float) r.nextGaussian() * 3; // not unit length: the index normalises
            }
            entries.add(entry("acme", "m" + i, 1, Scope.TEAM, null, "x", v));
        }
        float[] q = new float[16];
        for (int d = 0; d < q.length; d++) {
            q[d] = (float) r.nextGaussian();
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.vectorsName()).isEqualTo(LuceneVectorIndex.VECTORS_DOT_PRODUCT);
            index.upsert(entries);
            List<Candidate> exact = index.exactSearch(ACME, q, 10);
            List<Candidate> hits = new ArrayList<>(index.search(new Search(ACME, q, MODEL, null, 10)));
            hits.sort((a, b) -> Double.compare(b.similarity(), a.similarity()));
            assertThat(ids(hits)).isEqualTo(ids(exact));
            for (int i = 0; i < hits.size(); i++) {
                assertThat(hits.get(i).similarity())
                        .isCloseTo(exact.get(i).similarity(), org.assertj.core.data.Offset.offset(1e-5));
            }
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.vectorsName()).isEqualTo(LuceneVectorIndex.VECTORS_DOT_PRODUCT);
        }
    }

    @Test
    void anIndexWrittenBeforeTheVectorsWereRecorded_keepsItsCosineField_andTakesNewWrites() throws Exception {
        // what an index of the previous release holds: a cosine vector field, the model and analyser in the commit
        try (org.apache.lucene.store.Directory d = org.apache.lucene.store.FSDirectory.open(dir);
                org.apache.lucene.index.IndexWriter w = new org.apache.lucene.index.IndexWriter(
                        d, new org.apache.lucene.index.IndexWriterConfig(TextAnalyzers.cjkBigrams()))) {
            org.apache.lucene.document.Document doc = new org.apache.lucene.document.Document();
            doc.add(new org.apache.lucene.document.StringField(
                    LuceneVectorIndex.F_KEY, "acme/old", org.apache.lucene.document.Field.Store.YES));
            doc.add(new org.apache.lucene.document.SortedDocValuesField(
                    LuceneVectorIndex.F_ID, new org.apache.lucene.util.BytesRef("old")));
            doc.add(new org.apache.lucene.document.StringField(
                    LuceneVectorIndex.F_TEAM, "acme", org.apache.lucene.document.Field.Store.NO));
            doc.add(new org.apache.lucene.document.StringField(
                    LuceneVectorIndex.F_SCOPE, Scope.TEAM.wire(), org.apache.lucene.document.Field.Store.NO));
            doc.add(new org.apache.lucene.document.KnnFloatVectorField(
                    LuceneVectorIndex.F_VECTOR,
                    vec(0.6f, 0.8f, 0),
                    org.apache.lucene.index.VectorSimilarityFunction.COSINE));
            doc.add(new org.apache.lucene.document.NumericDocValuesField(LuceneVectorIndex.F_VERSION, 1));
            w.addDocument(doc);
            w.setLiveCommitData(java.util.Map.of("cairn.model", MODEL, "cairn.analyzer", "cjk-bigrams")
                    .entrySet());
            w.commit();
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.vectorsName()).isEqualTo(LuceneVectorIndex.VECTORS_COSINE);
            // a dot-product document would be refused by a field that compares by cosine
            index.upsert(List.of(entry("acme", "new", 1, Scope.TEAM, null, "x", vec(1, 0, 0))));
            List<Candidate> hits = index.search(new Search(ACME, vec(1, 0, 0), MODEL, null, 2));
            assertThat(ids(hits)).containsExactlyInAnyOrder("old", "new");
            Candidate old = byId(hits, "old");
            assertThat(old.similarity()).isCloseTo(0.6, org.assertj.core.data.Offset.offset(1e-5));
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.vectorsName()).isEqualTo(LuceneVectorIndex.VECTORS_COSINE);
        }
    }

    @Test
    void upsert_shouldIgnoreAnOlderVersion_soALateRetryCannotRollBack() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            index.upsert(List.of(entry("acme", "m1", 2, Scope.TEAM, null, "new", vec(0, 1, 0))));
            index.upsert(List.of(entry("acme", "m1", 1, Scope.TEAM, null, "old", vec(1, 0, 0))));
            Candidate c =
                    index.search(search("acme", "alice", null, vec(0, 1, 0), 1)).get(0);
            assertThat(c.similarity()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-5));
            index.delete(List.of(new Key(new Id("acme"), new Id("m1"), 3)));
            index.upsert(List.of(entry("acme", "m1", 2, Scope.TEAM, null, "new", vec(0, 1, 0))));
            assertThat(index.search(search("acme", "alice", null, vec(0, 1, 0), 1)))
                    .isEmpty();
        }
    }

    @Test
    void theModel_shouldBePinned_andAnotherModelRefused_acrossRestarts() {
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.modelId()).isEmpty();
            index.upsert(List.of(entry("acme", "m1", 1, Scope.TEAM, null, "x", vec(1, 0, 0))));
        }
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            assertThat(index.modelId()).contains(MODEL);
            assertThatThrownBy(() -> index.search(new Search(
                            new Filter(new Id("acme"), new Id("a"), null, Set.of(), Set.of()),
                            vec(1, 0, 0),
                            "other-model",
                            null,
                            3)))
                    .isInstanceOf(EmbeddingModelMismatch.class)
                    .hasMessageContaining(MODEL)
                    .hasMessageContaining("other-model");
            Entry foreign = new Entry(
                    new Key(new Id("acme"), new Id("m2"), 1),
                    Scope.TEAM,
                    null,
                    MemoryType.FACT,
                    List.of(),
                    "x",
                    Instant.parse("2026-01-01T00:00:00Z"),
                    vec(1, 0, 0),
                    "other-model");
            assertThatThrownBy(() -> index.upsert(List.of(foreign))).isInstanceOf(EmbeddingModelMismatch.class);
            assertThat(ids(index.search(search("acme", "a", null, vec(1, 0, 0), 3))))
                    .containsExactly("m1");
        }
    }

    @Test
    void hnsw_shouldAgreeWithExactSearch_onRandomVectors() {
        Random r = new Random(1);
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir)) {
            List<Entry> entries = new ArrayList<>();
            for (int i = 0; i < 2000; i++) {
                float[] v = new float[32];
                for (int d = 0; d < v.length; d++) {
                    v[d] = (float) r.nextGaussian();
                }
                entries.add(entry("acme", "m" + i, 1, Scope.TEAM, null, "x", v));
            }
            index.upsert(entries);
            double agree = 0;
            for (int q = 0; q < 20; q++) {
                float[] v = new float[32];
                for (int d = 0; d < v.length; d++) {
                    v[d] = (float) r.nextGaussian();
                }
                Filter f = new Filter(new Id("acme"), new Id("a"), null, Set.of(), Set.of());
                Set<String> exact = Set.copyOf(ids(index.exactSearch(f, v, 10)));
                List<Candidate> approx = new ArrayList<>(index.search(new Search(f, v, MODEL, null, 50)));
                approx.sort((a, b) -> Double.compare(b.similarity(), a.similarity()));
                agree += approx.subList(0, 10).stream()
                                .filter(c -> exact.contains(c.id().value()))
                                .count()
                        / 10.0;
            }
            assertThat(agree / 20).isGreaterThanOrEqualTo(0.95);
        }
    }
}
