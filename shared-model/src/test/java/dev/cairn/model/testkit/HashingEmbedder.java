package dev.cairn.model.testkit;

import dev.cairn.model.port.Embedder;
import java.util.List;

/**
 * A deterministic bag-of-words {@link Embedder}: each word (lower-cased, split at anything but letters and digits)
 * adds ±1 to one of {@value #DIMENSIONS} hashed dimensions, and the sum is scaled to unit length. Texts sharing most
 * words are close, texts sharing none are orthogonal (up to hash collisions), the same text always gives the same
 * vector: similarities a test can reason about without a model, and no query instruction, so a query equal to a
 * document lands on it exactly.
 */
public final class HashingEmbedder implements Embedder {

    public static final String MODEL = "hashing-bag-of-words-256";
    static final int DIMENSIONS = 256;

    @Override
    public String modelId() {
        return MODEL;
    }

    @Override
    public int dimensions() {
        return DIMENSIONS;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return texts.stream().map(HashingEmbedder::embed).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return embed(query);
    }

    private static float[] embed(String text) {
        float[] v = new float[DIMENSIONS];
        for (String w : InMemoryVectorIndex.words(text)) {
            int h = w.hashCode() * 0x9E3779B1; // spreads similar words' hashes over the dimensions
            v[Math.floorMod(h, DIMENSIONS)] += (h & 0x40000000) == 0 ? 1 : -1;
        }
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        if (norm > 0) {
            float scale = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < v.length; i++) {
                v[i] *= scale;
            }
        }
        return v;
    }
}
