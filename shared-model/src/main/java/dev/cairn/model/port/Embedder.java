package dev.cairn.model.port;

import java.util.List;

/**
 * Turns text into vectors. Vectors of different models are not comparable, so every vector is stored with
 * {@link #modelId()} and a query is refused when the ids differ.
 */
public interface Embedder {

    /** Stable id of the model, e.g. {@code bge-small-en-v15-q}. */
    String modelId();

    int dimensions();

    /** Embeds documents (memories); the result has one unit-length vector per text, in order. */
    List<float[]> embedDocuments(List<String> texts);

    /** Embeds a search query (an adapter may add a model-specific query instruction). */
    float[] embedQuery(String query);
}
