package dev.cairn.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.port.Embedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The bench's vector cache: a second run reads what the first embedded, and the file holds no text. */
class VectorCacheTest {

    /** Embeds a text as its length and first character, and counts what it was asked to embed. */
    static class Counting implements Embedder {
        final List<String> embedded = new ArrayList<>();

        @Override
        public String modelId() {
            return "counting";
        }

        @Override
        public int dimensions() {
            return 2;
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            embedded.addAll(texts);
            return texts.stream()
                    .map(t -> new float[] {t.length(), t.isEmpty() ? 0 : t.charAt(0)})
                    .toList();
        }

        @Override
        public float[] embedQuery(String query) {
            return embedDocuments(List.of(query)).get(0);
        }
    }

    @Test
    void embedDocuments_shouldReturnTheSavedVectors_withoutEmbeddingAgain_inALaterRun(@TempDir Path dir)
            throws Exception {
        Path file = dir.resolve("vectors.tsv");
        Counting first = new Counting();
        VectorCache run1 = new VectorCache(first, file);
        List<float[]> fresh = run1.embedDocuments(List.of("alpha secret line", "beta", "alpha secret line"));
        run1.save();

        Counting second = new Counting();
        List<float[]> cached = new VectorCache(second, file).embedDocuments(List.of("beta", "alpha secret line"));

        assertThat(first.embedded).containsExactly("alpha secret line", "beta");
        assertThat(second.embedded).isEmpty();
        assertThat(cached.get(0)).containsExactly(fresh.get(1));
        assertThat(cached.get(1)).containsExactly(fresh.get(0));
        assertThat(Files.readString(file)).doesNotContain("alpha").doesNotContain("beta");
    }

    @Test
    void embedDocuments_shouldEmbedAgain_whenTheModelDiffers(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("vectors.tsv");
        VectorCache run1 = new VectorCache(new Counting(), file);
        run1.embedDocuments(List.of("gamma"));
        run1.save();
        Counting other = new Counting() {
            @Override
            public String modelId() {
                return "another-model";
            }
        };

        new VectorCache(other, file).embedDocuments(List.of("gamma"));

        assertThat(other.embedded).containsExactly("gamma");
    }
}
