package dev.cairn.model.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.time.Duration;
import java.time.Instant;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.LongRange;

class ScorerProperties {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    private static Scorer scorer(double a, double b, double g, double halfLife) {
        return new Scorer(new RecallWeights(a, b, g, halfLife));
    }

    @Property
    void score_isMonotoneInSimilarity(
            @ForAll @DoubleRange(min = 0.01, max = 1) double alpha,
            @ForAll @DoubleRange(min = -1, max = 1) double s1,
            @ForAll @DoubleRange(min = -1, max = 1) double s2,
            @ForAll @LongRange(min = 0, max = 10_000) long ageDays,
            @ForAll @DoubleRange(min = 0, max = 1) double confidence) {
        Scorer s = scorer(alpha, 0.3, 0.3, 30);
        Instant t = NOW.minus(Duration.ofDays(ageDays));
        double lo = s.score(Math.min(s1, s2), t, confidence, NOW).total();
        double hi = s.score(Math.max(s1, s2), t, confidence, NOW).total();
        assertThat(hi).isGreaterThanOrEqualTo(lo);
    }

    @Property
    void score_neverRisesWithAge(
            @ForAll @DoubleRange(min = 0, max = 1) double beta,
            @ForAll @LongRange(min = 0, max = 100_000) long hours1,
            @ForAll @LongRange(min = 0, max = 100_000) long hours2,
            @ForAll @DoubleRange(min = 0.1, max = 3650) double halfLife) {
        Scorer s = scorer(0.5, beta, 0.2, halfLife);
        Instant newer = NOW.minus(Duration.ofHours(Math.min(hours1, hours2)));
        Instant older = NOW.minus(Duration.ofHours(Math.max(hours1, hours2)));
        assertThat(s.score(0.5, newer, 0.5, NOW).total())
                .isGreaterThanOrEqualTo(s.score(0.5, older, 0.5, NOW).total());
    }

    @Property
    void score_isMonotoneInConfidence(
            @ForAll @DoubleRange(min = 0, max = 1) double gamma,
            @ForAll @DoubleRange(min = 0, max = 1) double c1,
            @ForAll @DoubleRange(min = 0, max = 1) double c2) {
        Scorer s = scorer(0.5, 0.2, Math.max(gamma, 0.0), 30);
        assertThat(s.score(0.4, NOW, Math.max(c1, c2), NOW).total())
                .isGreaterThanOrEqualTo(s.score(0.4, NOW, Math.min(c1, c2), NOW).total());
    }

    @Property
    void betaZero_ignoresAge(
            @ForAll @LongRange(min = 0, max = 1_000_000) long hours,
            @ForAll @DoubleRange(min = -1, max = 1) double similarity,
            @ForAll @DoubleRange(min = 0, max = 1) double confidence) {
        Scorer s = scorer(0.6, 0, 0.4, 7);
        double fresh = s.score(similarity, NOW, confidence, NOW).total();
        double old = s.score(similarity, NOW.minus(Duration.ofHours(hours)), confidence, NOW)
                .total();
        assertThat(old).isEqualTo(fresh);
    }

    @Property
    void halfLife_meansWhatItSays(
            @ForAll @DoubleRange(min = 0.5, max = 3650) double halfLife,
            @ForAll @DoubleRange(min = 0, max = 5) double halfLives) {
        Scorer s = scorer(0.5, 0.5, 0, halfLife);
        long millis = (long) (halfLife * halfLives * 86_400_000L);
        double freshness = s.freshness(NOW.minusMillis(millis), NOW);
        assertThat(freshness).isCloseTo(Math.pow(0.5, halfLives), within(1e-6));
    }

    @Property
    void futureTimestamps_countAsNew(@ForAll @LongRange(min = 1, max = 1_000_000) long hoursAhead) {
        Scorer s = scorer(0.5, 0.5, 0, 30);
        assertThat(s.freshness(NOW.plus(Duration.ofHours(hoursAhead)), NOW)).isEqualTo(1.0);
    }

    @Property
    void scoreParts_addUpToTheTotal(
            @ForAll @DoubleRange(min = 0, max = 1) double a,
            @ForAll @DoubleRange(min = 0, max = 1) double b,
            @ForAll @DoubleRange(min = 0.01, max = 1) double g,
            @ForAll @DoubleRange(min = -1, max = 1) double sim,
            @ForAll @LongRange(min = 0, max = 5000) long days,
            @ForAll @DoubleRange(min = 0, max = 1) double conf,
            @ForAll @DoubleRange(min = 0, max = 1) double lex,
            @ForAll @DoubleRange(min = 0, max = 1) double lexicalShare) {
        Scorer.Score score = new Scorer(new RecallWeights(a, b, g, 30, lexicalShare))
                .score(sim, lex, NOW.minus(Duration.ofDays(days)), conf, NOW);
        assertThat(score.relevance())
                .isCloseTo((1 - lexicalShare) * score.similarity() + lexicalShare * score.lexical(), within(1e-12));
        assertThat(score.total())
                .isCloseTo(a * score.relevance() + b * score.freshness() + g * score.confidence(), within(1e-12));
    }
}
