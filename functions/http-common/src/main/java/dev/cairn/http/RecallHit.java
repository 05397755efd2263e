package dev.cairn.http;

import dev.cairn.model.recall.RecallResult;

/**
 * One recall result on the wire (API.md § Recall): {@code score = alpha·relevance + beta·freshness +
 * gamma·confidence}; {@code relevance} fuses {@code similarity} (cosine) and {@code lexical} (BM25 divided by the best
 * BM25 score among the query's candidates). Shared by the REST resource and the MCP recall tool, so an agent sees the
 * same score parts through either.
 */
public record RecallHit(
        MemoryView memory,
        double score,
        double similarity,
        double lexical,
        double relevance,
        double freshness,
        double confidence) {

    public static RecallHit of(RecallResult.Hit h) {
        return new RecallHit(
                MemoryView.of(h.memory()),
                h.score().total(),
                h.score().similarity(),
                h.score().lexical(),
                h.score().relevance(),
                h.score().freshness(),
                h.score().confidence());
    }
}
