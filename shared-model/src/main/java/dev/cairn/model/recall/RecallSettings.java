package dev.cairn.model.recall;

/**
 * Recall defaults from configuration, overridable per request. {@code defaultCandidates} is a floor: a request's
 * candidate pool is at least {@code 5·top_k}.
 */
public record RecallSettings(
        RecallWeights weights,
        int defaultTopK,
        int maxTopK,
        int defaultCandidates,
        int maxCandidates,
        int maxQueryBytes) {

    public static final RecallSettings DEFAULTS =
            new RecallSettings(new RecallWeights(0.7, 0.15, 0.15, 30), 10, 100, 50, 1000, 8 * 1024);
}
