package dev.cairn.model.recall;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import java.util.Comparator;
import java.util.List;

/** Ranked hits (best first), the embedding model that ranked them, and how long recall took, step by step. */
public record RecallResult(List<Hit> hits, String model, long tookMs, Timing timing) {

    /**
     * Where a recall's time went, in nanoseconds: embedding the query, the index's candidate search (kNN and BM25),
     * hydrating the candidates from the record store, and ranking them (scores, access checks, read redaction).
     */
    public record Timing(long embedNanos, long searchNanos, long hydrateNanos, long rankNanos) {

        /**
         * The steps as a W3C {@code Server-Timing} header value (milliseconds, e.g. {@code embed;dur=2.71}), which
         * browsers' developer tools and HTTP clients read without knowing Cairn; the total is the sum of the steps.
         */
        public String serverTimingHeader() {
            return String.format(
                    java.util.Locale.ROOT,
                    "embed;dur=%.2f, search;dur=%.2f, hydrate;dur=%.2f, rank;dur=%.2f, recall;dur=%.2f",
                    embedNanos / 1e6,
                    searchNanos / 1e6,
                    hydrateNanos / 1e6,
                    rankNanos / 1e6,
                    (embedNanos + searchNanos + hydrateNanos + rankNanos) / 1e6);
        }
    }

    public record Hit(Memory memory, Scorer.Score score) {

        Ranked ranked() {
            return new Ranked(memory.id(), score);
        }
    }

    /** A memory's place in a ranking: by total score, ties broken by id so that every backend orders alike. */
    public record Ranked(Id id, Scorer.Score score) {

        public static final Comparator<Ranked> BEST_FIRST = Comparator.comparingDouble(
                        (Ranked r) -> r.score().total())
                .reversed()
                .thenComparing(Ranked::id);
    }
}
