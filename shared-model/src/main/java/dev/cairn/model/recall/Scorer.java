package dev.cairn.model.recall;

import dev.cairn.model.id.Id;
import dev.cairn.model.port.VectorIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * The rerank formula of recall, the one both index adapters feed (each hands over its candidates' exact cosine and
 * raw BM25 score; nothing adapter-specific enters the ranking). Pure and deterministic so that it can be
 * property-tested: monotone in similarity, lexical score, freshness and confidence; with {@code beta = 0} age has no
 * effect.
 *
 * <p>Raw BM25 scores are not comparable across queries (they grow with the number and rarity of the query's terms),
 * so each query's scores are divided by the best one among its candidates: the lexical part is 1 for the best
 * lexical match and 0 for a memory that shares no term. Dividing by the maximum rather than min-max keeps 0 meaning
 * "no term in common" and means that raising one memory's BM25 score can only lower the others' parts, never its
 * own rank.
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

    /** Each candidate's BM25 score divided by the best one of the pool (all 0 when nothing matched lexically). */
    public static Map<Id, Double> normalisedLexical(Collection<VectorIndex.Candidate> candidates) {
        double best = 0;
        for (VectorIndex.Candidate c : candidates) {
            best = Math.max(best, c.lexical());
        }
        Map<Id, Double> out = new HashMap<>();
        for (VectorIndex.Candidate c : candidates) {
            out.merge(c.id(), best > 0 ? Math.max(0, c.lexical()) / best : 0.0, Math::max);
        }
        return out;
    }

    /** relevance = (1 − w)·similarity + w·lexical, with w the lexical share of the weights. */
    public double relevance(double similarity, double lexical) {
        return (1 - weights.lexical()) * similarity + weights.lexical() * lexical;
    }

    /** {@code lexical} is the normalised lexical score in [0, 1] ({@link #normalisedLexical}). */
    public Score score(double similarity, double lexical, Instant happened, double confidence, Instant now) {
        double freshness = freshness(happened, now);
        double relevance = relevance(similarity, lexical);
        double total = weights.alpha() * relevance + weights.beta() * freshness + weights.gamma() * confidence;
        return new Score(total, similarity, lexical, relevance, freshness, confidence);
    }

    /** The score of a memory with no lexical match. */
    public Score score(double similarity, Instant happened, double confidence, Instant now) {
        return score(similarity, 0, happened, confidence, now);
    }

    /** The total and the parts it was made of, returned to the caller so a ranking can be explained. */
    public record Score(
            double total, double similarity, double lexical, double relevance, double freshness, double confidence) {}
}
