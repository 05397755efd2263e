package dev.cairn.model.recall;

import java.time.Duration;
import java.time.Instant;

/**
 * The rerank formula of recall. Pure and deterministic so that it can be property-tested: monotone in similarity,
 * freshness and confidence; with {@code beta = 0} age has no effect.
 */
public final class Scorer {

    private static final double SECONDS_PER_DAY = 86_400.0;

    private final RecallWeights weights;

    public Scorer(RecallWeights weights) {
        this.weights = weights;
    }

    /** exp(−λ·age_days); a memory from the future (clock skew) counts as brand new rather than fresher than new. */
    public double freshness(Instant happened, Instant now) {
        double ageDays = Math.max(0, Duration.between(happened, now).toMillis() / 1000.0 / SECONDS_PER_DAY);
        return Math.exp(-weights.lambdaPerDay() * ageDays);
    }

    public Score score(double similarity, Instant happened, double confidence, Instant now) {
        double freshness = freshness(happened, now);
        double total = weights.alpha() * similarity + weights.beta() * freshness + weights.gamma() * confidence;
        return new Score(total, similarity, freshness, confidence);
    }

    /** The total and the three parts it was made of, returned to the caller so a ranking can be explained. */
    public record Score(double total, double similarity, double freshness, double confidence) {}
}
