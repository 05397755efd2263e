package dev.cairn.model.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import dev.cairn.model.testkit.Memories;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import org.junit.jupiter.api.Test;

/** A memory's stored vector: its content's, with its context mixed in by a share. */
class DocumentVectorTest {

    private static final HashingEmbedder EMBEDDER = new HashingEmbedder();

    @Property
    void theStoredVector_shouldScoreTheMixOfTheContentsAndTheContextsCosines(
            @ForAll("unitVectors") float[] content,
            @ForAll("unitVectors") float[] context,
            @ForAll("unitVectors") float[] query,
            @ForAll @DoubleRange(min = 0, max = 0.99) double share) {
        float[] mixed = DocumentVector.of(content, context, share);
        double length = DocumentVector.length(mixed);

        // what an index stores (the unit direction scaled to the length) and scores (the dot product with the query)
        double score = dot(query, mixed) / Math.sqrt(dot(mixed, mixed)) * length;
        assertThat(length).isGreaterThan(0).isLessThanOrEqualTo(1);
        assertThat(score).isCloseTo((1 - share) * dot(query, content) + share * dot(query, context), within(1e-4));
    }

    @Property
    void aLargerShare_shouldRaiseTheScoreOfAQueryCloserToTheContextThanToTheContent_andNeverOtherwise(
            @ForAll("unitVectors") float[] content,
            @ForAll("unitVectors") float[] context,
            @ForAll("unitVectors") float[] query,
            @ForAll @DoubleRange(min = 0, max = 0.98) double share) {
        double before = dot(query, DocumentVector.of(content, context, share));
        double after = dot(query, DocumentVector.of(content, context, share + 0.01));

        if (dot(query, context) >= dot(query, content)) {
            assertThat(after).isGreaterThanOrEqualTo(before - 1e-5);
        } else {
            assertThat(after).isLessThanOrEqualTo(before + 1e-5);
        }
    }

    @Test
    void noContextOrAZeroShare_shouldLeaveTheContentsVectorAsItIs() {
        float[] content = EMBEDDER.embedQuery("We deploy on Tuesdays");
        float[] context = EMBEDDER.embedQuery("Noted, Tuesdays it is");

        assertThat(DocumentVector.of(content, null, 0.25)).isSameAs(content);
        assertThat(DocumentVector.of(content, context, 0)).isSameAs(content);
    }

    @Test
    void aShareOutsideZeroToOne_orVectorsOfTwoSizes_shouldBeRefused() {
        float[] v = {1, 0};
        assertThatThrownBy(() -> DocumentVector.of(v, v, 1)).hasMessageContaining("[0, 1)");
        assertThatThrownBy(() -> DocumentVector.of(v, v, -0.1)).hasMessageContaining("[0, 1)");
        assertThatThrownBy(() -> DocumentVector.of(v, new float[] {1, 0, 0}, 0.25))
                .hasMessageContaining("differ in size");
        assertThatThrownBy(() -> new Indexer(new InMemoryMemoryStore(), new InMemoryVectorIndex(), EMBEDDER, null, 1.5))
                .hasMessageContaining("[0, 1)");
    }

    @Test
    void aTurnWrittenWithItsReply_shouldBeFoundOnTheDenseSideByWordsOnlyTheReplyHolds() {
        Memory turn = Memories.memory()
                .team("acme")
                .id("m1")
                .content("How should we ship the new billing service?")
                .context("Ship it with ArgoCD through the staging cluster first")
                .build();
        String question = "ArgoCD staging cluster";

        double without = similarity(turn, 0, question);
        double with = similarity(turn, 0.3, question);

        assertThat(without).isCloseTo(0, within(0.2)); // the turn alone shares no word with the question
        assertThat(with).isGreaterThan(without + 0.05);
    }

    @Test
    void aConversationWrittenInOneBatch_eachTurnWithTheNextAsContext_shouldEmbedEachTextOnce() {
        List<String> embedded = new ArrayList<>();
        Embedder counting = new Embedder() {
            @Override
            public String modelId() {
                return EMBEDDER.modelId();
            }

            @Override
            public int dimensions() {
                return EMBEDDER.dimensions();
            }

            @Override
            public List<float[]> embedDocuments(List<String> texts) {
                embedded.addAll(texts);
                return EMBEDDER.embedDocuments(texts);
            }

            @Override
            public float[] embedQuery(String query) {
                return EMBEDDER.embedQuery(query);
            }
        };
        List<String> turns = List.of("Which CI do we use?", "GitHub Actions, with a self-hosted runner", "Thanks!");
        List<Memory> batch = new ArrayList<>();
        for (int i = 0; i < turns.size(); i++) {
            batch.add(Memories.memory()
                    .team("acme")
                    .id("m" + i)
                    .content(turns.get(i))
                    .context(i + 1 < turns.size() ? turns.get(i + 1) : "You're welcome")
                    .build());
        }
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        store.insertAll(batch);

        new Indexer(store, new InMemoryVectorIndex(), counting, null, 0.25).index(batch);

        // three contents and the one context that is no turn of the batch, each once
        assertThat(embedded)
                .containsExactly(
                        "Which CI do we use?",
                        "GitHub Actions, with a self-hosted runner",
                        "Thanks!",
                        "You're welcome");
    }

    /** The dense similarity of {@code m}, indexed with this context share, to {@code question}. */
    private static double similarity(Memory m, double share, String question) {
        InMemoryMemoryStore store = new InMemoryMemoryStore();
        InMemoryVectorIndex index = new InMemoryVectorIndex();
        store.insertAll(List.of(m));
        new Indexer(store, index, EMBEDDER, null, share).index(List.of(m));
        return index.search(new VectorIndex.Search(
                        new VectorIndex.Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of()),
                        EMBEDDER.embedQuery(question),
                        EMBEDDER.modelId(),
                        null,
                        5))
                .get(0)
                .similarity();
    }

    @Provide
    Arbitrary<float[]> unitVectors() {
        return Arbitraries.floats()
                .between(-1, 1)
                .array(float[].class)
                .ofSize(8)
                .filter(v -> dot(v, v) > 1e-3)
                .map(v -> {
                    float n = (float) Math.sqrt(dot(v, v));
                    float[] u = new float[v.length];
                    for (int i = 0; i < v.length; i++) {
                        u[i] = v[i] / n;
                    }
                    return u;
                });
    }

    private static double dot(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += (double) a[i] * b[i];
        }
        return s;
    }
}
