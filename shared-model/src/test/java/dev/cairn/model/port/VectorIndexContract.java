package dev.cairn.model.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.data.Offset.offset;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex.Candidate;
import dev.cairn.model.port.VectorIndex.Entry;
import dev.cairn.model.port.VectorIndex.Filter;
import dev.cairn.model.port.VectorIndex.Key;
import dev.cairn.model.port.VectorIndex.Search;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link VectorIndex} adapter must do, run against each real backend (a Lucene folder, an OpenSearch node
 * with either document-id mode) and the in-memory fake. Each test gets an empty index of its own.
 */
public abstract class VectorIndexContract {

    static final String MODEL = "test-model";
    private static final Instant AT = Instant.parse("2026-11-01T00:00:00Z");

    /** A new, empty index. */
    protected abstract VectorIndex open() throws Exception;

    /** The same index as {@link #open} last returned, as a fresh process would see it. */
    protected abstract VectorIndex reopen() throws Exception;

    /** Whether a removal keeps out a late, older write of the same memory (not so for generated document ids). */
    protected boolean remembersRemovals() {
        return true;
    }

    protected VectorIndex index;

    @BeforeEach
    void openIndex() throws Exception {
        index = open();
    }

    @AfterEach
    void closeIndex() throws Exception {
        if (index instanceof AutoCloseable c) {
            c.close();
        }
    }

    static Entry entry(String team, String id, long version, Scope scope, String user, String text, float... v) {
        return entry(team, id, version, scope, user, MemoryType.FACT, List.of(), text, v);
    }

    static Entry entry(
            String team,
            String id,
            long version,
            Scope scope,
            String user,
            MemoryType type,
            List<String> tags,
            String text,
            float... v) {
        return new Entry(
                new Key(new Id(team), new Id(id), version),
                scope,
                user == null ? null : new Id(user),
                type,
                tags.stream().map(Id::new).toList(),
                text,
                AT,
                v,
                MODEL);
    }

    static List<String> ids(List<Candidate> cs) {
        return cs.stream().map(c -> c.id().value()).toList();
    }

    static Search search(String team, String viewer, Scope scope, int k, float... v) {
        return new Search(new Filter(new Id(team), new Id(viewer), scope, Set.of(), Set.of()), v, MODEL, null, k);
    }

    @Test
    void anEmptyIndex_shouldHaveNoModel_andFindNothing() {
        assertThat(index.modelId()).isEmpty();
        assertThat(index.search(search("acme", "alice", null, 5, 1, 0, 0))).isEmpty();
        index.delete(List.of(new Key(new Id("acme"), new Id("gone"), 2)));
    }

    @Test
    void aSearchableWrite_shouldBeFoundAtOnce_andSurviveAReopenOnceReportedDurable() throws Exception {
        CompletableFuture<Void> upserted = index.upsertSearchable(List.of(
                entry("acme", "kept", 1, Scope.TEAM, null, "x", 1, 0, 0),
                entry("acme", "dropped", 1, Scope.TEAM, null, "x", 0, 1, 0)));
        assertThat(ids(index.search(search("acme", "alice", null, 10, 1, 0, 0))))
                .as("searchable before it is durable")
                .containsExactlyInAnyOrder("kept", "dropped");
        CompletableFuture<Void> deleted =
                index.deleteSearchable(List.of(new Key(new Id("acme"), new Id("dropped"), 2)));
        assertThat(ids(index.search(search("acme", "alice", null, 10, 1, 0, 0))))
                .containsExactly("kept");

        upserted.get(10, TimeUnit.SECONDS);
        deleted.get(10, TimeUnit.SECONDS);
        closeIndex();
        index = reopen();
        assertThat(ids(index.search(search("acme", "alice", null, 10, 1, 0, 0))))
                .containsExactly("kept");
    }

    @Test
    void search_shouldNeverReturnAnotherTeamsMemories_evenWhenTheyAreNearest() {
        List<Entry> entries = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            entries.add(entry("evil", "e" + i, 1, Scope.TEAM, null, "secret plans", 1, 0.001f * i, 0));
        }
        entries.add(entry("acme", "a1", 1, Scope.TEAM, null, "plans", 0, 1, 0));
        index.upsert(entries);
        List<Candidate> hits = index.search(new Search(
                new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                new float[] {1, 0, 0},
                MODEL,
                "secret plans",
                5));
        assertThat(ids(hits)).containsExactly("a1");
        assertThat(hits.get(0).similarity()).isCloseTo(0.0, offset(1e-5));
    }

    @Test
    void search_shouldShowUserMemoriesOnlyToTheirOwner() {
        index.upsert(List.of(
                entry("acme", "mine", 1, Scope.USER, "alice", "x", 1, 0, 0),
                entry("acme", "bobs", 1, Scope.USER, "bob", "x", 1, 0, 0),
                entry("acme", "team", 1, Scope.TEAM, null, "x", 1, 0, 0)));
        assertThat(ids(index.search(search("acme", "alice", null, 10, 1, 0, 0))))
                .containsExactlyInAnyOrder("mine", "team");
        assertThat(ids(index.search(search("acme", "alice", Scope.USER, 10, 1, 0, 0))))
                .containsExactly("mine");
        assertThat(ids(index.search(search("acme", "alice", Scope.TEAM, 10, 1, 0, 0))))
                .containsExactly("team");
    }

    @Test
    void search_shouldNarrowByTypesAndTags_insideTheQuery() {
        index.upsert(List.of(
                entry("acme", "pref", 1, Scope.TEAM, null, MemoryType.PREFERENCE, List.of("editor"), "x", 1, 0, 0),
                entry("acme", "conv", 1, Scope.TEAM, null, MemoryType.CONVENTION, List.of("style"), "x", 1, 0, 0),
                entry("acme", "fact", 1, Scope.TEAM, null, MemoryType.FACT, List.of("editor", "db"), "x", 1, 0, 0)));
        Filter byType = new Filter(
                new Id("acme"), new Id("a"), null, Set.of(MemoryType.PREFERENCE, MemoryType.CONVENTION), Set.of());
        assertThat(ids(index.search(new Search(byType, new float[] {1, 0, 0}, MODEL, null, 10))))
                .containsExactlyInAnyOrder("pref", "conv");
        Filter byTag = new Filter(new Id("acme"), new Id("a"), null, Set.of(), Set.of(new Id("editor")));
        assertThat(ids(index.search(new Search(byTag, new float[] {1, 0, 0}, MODEL, null, 10))))
                .containsExactlyInAnyOrder("pref", "fact");
    }

    @Test
    void search_shouldAddBm25Candidates_withTheirExactCosine() {
        index.upsert(List.of(
                entry("acme", "near", 1, Scope.TEAM, null, "nothing in common", 1, 0, 0),
                entry("acme", "lexical", 1, Scope.TEAM, null, "PostgreSQL sixteen", 0.6f, 0.8f, 0)));
        List<Candidate> hits = index.search(new Search(
                new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                new float[] {1, 0, 0},
                MODEL,
                "postgresql",
                1));
        assertThat(ids(hits)).containsExactlyInAnyOrder("near", "lexical");
        Candidate lexical = hits.stream()
                .filter(c -> c.id().value().equals("lexical"))
                .findFirst()
                .orElseThrow();
        assertThat(lexical.similarity()).isCloseTo(0.6, offset(1e-5));
        assertThat(lexical.lexical()).isPositive();
        Candidate near = hits.stream()
                .filter(c -> c.id().value().equals("near"))
                .findFirst()
                .orElseThrow();
        assertThat(near.similarity()).isCloseTo(1.0, offset(1e-5));
        assertThat(near.lexical()).isZero();
    }

    @Test
    void anEntryShorterThanAUnitVector_shouldScoreItsCosineTimesItsLength_byKnnAndByBm25Alike() {
        // a memory with a context: its vector a mix of two unit vectors, of length 0.8 here (DocumentVector)
        Entry mixed = new Entry(
                new Key(new Id("acme"), new Id("mixed"), 1),
                Scope.TEAM,
                null,
                MemoryType.FACT,
                List.of(),
                "PostgreSQL sixteen",
                AT,
                new float[] {0.6f, 0.8f, 0},
                MODEL,
                0.8);
        index.upsert(List.of(mixed, entry("acme", "unit", 1, Scope.TEAM, null, "nothing in common", 0.8f, 0.6f, 0)));

        // found by the graph: 0.8 · cos = 0.8 · 0.6, below the unit vector it would have beaten on direction alone
        List<Candidate> knn = index.search(search("acme", "alice", null, 2, 1, 0, 0));
        assertThat(ids(knn)).containsExactlyInAnyOrder("unit", "mixed");
        assertThat(similarityOf(knn, "unit")).isCloseTo(0.8, offset(1e-5));
        assertThat(similarityOf(knn, "mixed")).isCloseTo(0.48, offset(1e-5));
        // found by its text only: the same score
        List<Candidate> lexical = index.search(new Search(
                new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                new float[] {0, 0, 1},
                MODEL,
                "postgresql",
                1));
        assertThat(lexical.stream()
                        .filter(c -> c.id().value().equals("mixed"))
                        .findFirst()
                        .orElseThrow()
                        .lexical())
                .isPositive();
        assertThat(similarityOf(lexical, "mixed")).isCloseTo(0.0, offset(1e-5));
        List<Candidate> along = index.search(new Search(
                new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                new float[] {0, 1, 0},
                MODEL,
                "postgresql",
                1));
        assertThat(similarityOf(along, "mixed")).isCloseTo(0.64, offset(1e-5));
    }

    private static double similarityOf(List<Candidate> cs, String id) {
        return cs.stream()
                .filter(c -> c.id().value().equals(id))
                .findFirst()
                .orElseThrow()
                .similarity();
    }

    @Test
    void upsert_shouldIgnoreAnOlderVersion_soALateRetryCannotRollBack() {
        index.upsert(List.of(entry("acme", "m1", 2, Scope.TEAM, null, "new", 0, 1, 0)));
        index.upsert(List.of(entry("acme", "m1", 1, Scope.TEAM, null, "old", 1, 0, 0)));
        List<Candidate> hits = index.search(search("acme", "alice", null, 5, 0, 1, 0));
        assertThat(ids(hits)).containsExactly("m1");
        assertThat(hits.get(0).similarity()).isCloseTo(1.0, offset(1e-5));
    }

    @Test
    void upsert_shouldReplaceAnOlderVersion_leavingOneCandidate() {
        index.upsert(List.of(entry("acme", "m1", 1, Scope.TEAM, null, "old words", 1, 0, 0)));
        index.upsert(List.of(entry("acme", "m1", 2, Scope.TEAM, null, "new words", 0, 1, 0)));
        List<Candidate> hits = index.search(new Search(
                new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                new float[] {1, 0, 0},
                MODEL,
                "old",
                5));
        assertThat(ids(hits)).containsExactly("m1");
        assertThat(hits.get(0).similarity()).isCloseTo(0.0, offset(1e-5));
        assertThat(hits.get(0).lexical()).isZero();
    }

    @Test
    void delete_shouldRemove_andKeepOutALateOlderWrite() {
        index.upsert(List.of(
                entry("acme", "m1", 2, Scope.TEAM, null, "x", 0, 1, 0),
                entry("acme", "m2", 1, Scope.TEAM, null, "x", 0, 1, 0)));
        index.delete(List.of(new Key(new Id("acme"), new Id("m1"), 3)));
        assertThat(ids(index.search(search("acme", "alice", null, 5, 0, 1, 0)))).containsExactly("m2");
        assumeTrue(remembersRemovals(), "this adapter cannot remember removals");
        index.upsert(List.of(entry("acme", "m1", 2, Scope.TEAM, null, "x", 0, 1, 0)));
        assertThat(ids(index.search(search("acme", "alice", null, 5, 0, 1, 0)))).containsExactly("m2");
    }

    @Test
    void theModel_shouldBePinned_andAnotherModelRefused_acrossRestarts() throws Exception {
        index.upsert(List.of(entry("acme", "m1", 1, Scope.TEAM, null, "x", 1, 0, 0)));
        closeIndex();
        index = reopen();
        assertThat(index.modelId()).contains(MODEL);
        assertThatThrownBy(() -> index.search(new Search(
                        new Filter(new Id("acme"), new Id("a"), null, Set.of(), Set.of()),
                        new float[] {1, 0, 0},
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
                AT,
                new float[] {1, 0, 0},
                "other-model");
        assertThatThrownBy(() -> index.upsert(List.of(foreign))).isInstanceOf(EmbeddingModelMismatch.class);
        assertThat(ids(index.search(search("acme", "a", null, 3, 1, 0, 0)))).containsExactly("m1");
    }

    @Test
    void knn_shouldFindTheExactNearestNeighbours_onRandomVectors() {
        Random r = new Random(7);
        List<Entry> entries = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            float[] v = gaussian(r, 32);
            vectors.add(v);
            entries.add(entry("acme", "m" + i, 1, Scope.TEAM, null, "x", v));
        }
        index.upsert(entries);
        double agree = 0;
        int queries = 20;
        for (int q = 0; q < queries; q++) {
            float[] v = gaussian(r, 32);
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < vectors.size(); i++) {
                order.add(i);
            }
            order.sort((a, b) -> Double.compare(cos(v, vectors.get(b)), cos(v, vectors.get(a))));
            Set<String> exact =
                    Set.copyOf(order.subList(0, 10).stream().map(i -> "m" + i).toList());
            List<Candidate> approx = new ArrayList<>(index.search(search("acme", "a", null, 10, v)));
            approx.sort((a, b) -> Double.compare(b.similarity(), a.similarity()));
            for (Candidate c : approx) {
                int i = Integer.parseInt(c.id().value().substring(1));
                assertThat(c.similarity()).isCloseTo(cos(v, vectors.get(i)), offset(1e-4));
            }
            agree += approx.subList(0, Math.min(10, approx.size())).stream()
                            .filter(c -> exact.contains(c.id().value()))
                            .count()
                    / 10.0;
        }
        assertThat(agree / queries).isGreaterThanOrEqualTo(0.95);
    }

    private static float[] gaussian(Random r, int dims) {
        float[] v = new float[dims];
        for (int d = 0; d < dims; d++) {
            v[d] = (float) r.nextGaussian();
        }
        return v;
    }

    private static double cos(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }
}
