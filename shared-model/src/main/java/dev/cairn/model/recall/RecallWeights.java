package dev.cairn.model.recall;

import dev.cairn.model.error.InvalidInput;

/**
 * How recall ranks: {@code score = alpha·relevance + beta·exp(−λ·age_days) + gamma·confidence}, with
 * {@code λ = ln 2 / halfLifeDays}, so a memory exactly one half-life old has freshness 0.5, and
 * {@code relevance = (1 − lexical)·similarity + lexical·lexical_score} (see {@link Scorer}).
 *
 * <p>Invariants: each weight is in [0, 1] and at least one of alpha, beta and gamma is positive; the half-life is
 * positive.
 */
public record RecallWeights(double alpha, double beta, double gamma, double halfLifeDays, double lexical) {

    public static final double MAX_HALF_LIFE_DAYS = 36_500;

    /**
     * The share of the normalised BM25 score in relevance: the best mean turn Recall@10 over the dev halves of the
     * recall benchmark's BEAM 100K and MemDaily samples (README § Benchmark › Recall quality).
     */
    public static final double DEFAULT_LEXICAL = 0.2;

    public RecallWeights {
        if (!(alpha >= 0 && alpha <= 1 && beta >= 0 && beta <= 1 && gamma >= 0 && gamma <= 1)) {
            throw new InvalidInput("weights", "alpha, beta and gamma must each be between 0 and 1");
        }
        if (alpha + beta + gamma == 0) {
            throw new InvalidInput("weights", "at least one of alpha, beta and gamma must be positive");
        }
        if (!(lexical >= 0 && lexical <= 1)) {
            throw new InvalidInput("weights.lexical", "must be between 0 and 1");
        }
        if (!(halfLifeDays > 0 && halfLifeDays <= MAX_HALF_LIFE_DAYS)) {
            throw new InvalidInput("half_life_days", "must be above 0 and at most " + MAX_HALF_LIFE_DAYS);
        }
    }

    /** The configured weights with the default lexical share. */
    public RecallWeights(double alpha, double beta, double gamma, double halfLifeDays) {
        this(alpha, beta, gamma, halfLifeDays, DEFAULT_LEXICAL);
    }

    public double lambdaPerDay() {
        return Math.log(2) / halfLifeDays;
    }
}
