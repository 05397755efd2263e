package dev.cairn.model.recall;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.port.VectorIndex;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;

/**
 * The whole ranking of one candidate pool (per-query lexical normalisation, fusion, freshness, confidence, the
 * best-first order): raising only one part of one memory never lowers that memory's rank, whatever the weights.
 */
class RankProperties {

    private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

    record Part(double similarity, double lexical, long ageHours, double confidence) {}

    enum Raised {
        SIMILARITY,
        LEXICAL,
        RECENCY,
        CONFIDENCE
    }

    @Provide
    Arbitrary<List<Part>> pools() {
        Arbitrary<Part> part = Combinators.combine(
                        Arbitraries.doubles().between(-1, 1),
                        // many memories share no term with the query: a BM25 score of exactly 0
                        Arbitraries.frequencyOf(
                                net.jqwik.api.Tuple.of(1, Arbitraries.just(0.0)),
                                net.jqwik.api.Tuple.of(2, Arbitraries.doubles().between(0, 30))),
                        Arbitraries.longs().between(0, 100_000),
                        Arbitraries.doubles().between(0, 1))
                .as(Part::new);
        return part.list().ofMinSize(1).ofMaxSize(30);
    }

    @Property
    void raisingOnePart_neverLowersThatMemorysRank(
            @ForAll("pools") List<Part> pool,
            @ForAll @IntRange(min = 0, max = 29) int pick,
            @ForAll Raised raised,
            @ForAll @DoubleRange(min = 0, max = 2) double by,
            @ForAll @DoubleRange(min = 0, max = 1) double alpha,
            @ForAll @DoubleRange(min = 0, max = 1) double beta,
            @ForAll @DoubleRange(min = 0.01, max = 1) double gamma,
            @ForAll @DoubleRange(min = 0, max = 1) double lexicalShare) {
        int i = pick % pool.size();
        RecallWeights weights = new RecallWeights(alpha, beta, gamma, 30, lexicalShare);
        Part p = pool.get(i);
        Part up = switch (raised) {
            case SIMILARITY -> new Part(Math.min(1, p.similarity() + by), p.lexical(), p.ageHours(), p.confidence());
            case LEXICAL -> new Part(p.similarity(), p.lexical() + by * 10, p.ageHours(), p.confidence());
            case RECENCY ->
                new Part(p.similarity(), p.lexical(), Math.max(0, p.ageHours() - (long) (by * 5_000)), p.confidence());
            case CONFIDENCE -> new Part(p.similarity(), p.lexical(), p.ageHours(), Math.min(1, p.confidence() + by));
        };
        List<Part> raisedPool = new ArrayList<>(pool);
        raisedPool.set(i, up);
        assertThat(rankOf(raisedPool, i, weights)).isLessThanOrEqualTo(rankOf(pool, i, weights));
    }

    @Property
    void lexicalPart_isTheShareOfTheBestLexicalScore(@ForAll("pools") List<Part> pool) {
        List<VectorIndex.Candidate> candidates = candidates(pool);
        Map<Id, Double> lexical = Scorer.normalisedLexical(candidates);
        double best = pool.stream().mapToDouble(Part::lexical).max().orElse(0);
        for (VectorIndex.Candidate c : candidates) {
            double part = lexical.get(c.id());
            assertThat(part).isBetween(0.0, 1.0);
            if (best > 0 && c.lexical() == best) {
                assertThat(part).isEqualTo(1.0);
            }
            if (c.lexical() == 0) {
                assertThat(part).isEqualTo(0.0);
            }
        }
    }

    private static List<VectorIndex.Candidate> candidates(List<Part> pool) {
        List<VectorIndex.Candidate> out = new ArrayList<>();
        for (int j = 0; j < pool.size(); j++) {
            out.add(new VectorIndex.Candidate(
                    id(j), pool.get(j).similarity(), pool.get(j).lexical()));
        }
        return out;
    }

    private static Id id(int j) {
        return new Id(String.format("m%03d", j));
    }

    /** The 0-based position of memory {@code i} in the ranking recall returns. */
    private static int rankOf(List<Part> pool, int i, RecallWeights weights) {
        Scorer scorer = new Scorer(weights);
        Map<Id, Double> lexical = Scorer.normalisedLexical(candidates(pool));
        List<RecallResult.Ranked> ranked = new ArrayList<>();
        for (int j = 0; j < pool.size(); j++) {
            Part p = pool.get(j);
            ranked.add(new RecallResult.Ranked(
                    id(j),
                    scorer.score(
                            p.similarity(),
                            lexical.get(id(j)),
                            NOW.minus(Duration.ofHours(p.ageHours())),
                            p.confidence(),
                            NOW)));
        }
        ranked.sort(RecallResult.Ranked.BEST_FIRST);
        for (int r = 0; r < ranked.size(); r++) {
            if (ranked.get(r).id().equals(id(i))) {
                return r;
            }
        }
        throw new AssertionError("memory " + i + " is not ranked");
    }
}
