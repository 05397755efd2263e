package dev.cairn.local;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.port.Embedder;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class EmbedderWarmUpTest {

    /** Records what it was asked to embed. */
    private static final class Recording implements Embedder {
        final List<String> queries = new ArrayList<>();
        final List<List<String>> batches = new ArrayList<>();

        @Override
        public String modelId() {
            return "recording";
        }

        @Override
        public int dimensions() {
            return 2;
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            batches.add(texts);
            return texts.stream().map(t -> new float[] {1, 0}).toList();
        }

        @Override
        public float[] embedQuery(String query) {
            queries.add(query);
            return new float[] {1, 0};
        }
    }

    @Test
    void warmUp_shouldRunTheModelOnceAsARecallAndOnceAsABatchWrite() {
        Recording embedder = new Recording();

        assertThat(EmbedderWarmUp.warm(() -> embedder, e -> true)).isTrue();

        assertThat(embedder.queries).hasSize(1);
        assertThat(embedder.batches).hasSize(1);
        assertThat(embedder.batches.get(0)).hasSizeGreaterThan(1);
    }

    @Test
    void aModelThatFailsToLoad_shouldBeReportedFalse_andNeverThrow() {
        assertThat(EmbedderWarmUp.warm(
                        () -> {
                            throw new IllegalArgumentException("unknown embedding model 'x'");
                        },
                        e -> true))
                .isFalse();
        assertThat(EmbedderWarmUp.warm(
                        () -> {
                            throw new UnsatisfiedLinkError("no onnxruntime in java.library.path");
                        },
                        e -> true))
                .isFalse();
    }

    @Test
    void aRemoteModel_shouldNotBeCalled() {
        Recording remote = new Recording();

        assertThat(EmbedderWarmUp.warm(() -> remote, e -> false)).isFalse();

        assertThat(remote.queries).isEmpty();
        assertThat(remote.batches).isEmpty();
    }
}
