package dev.cairn.model.recall;

import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.validation.Checks;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/** A recall request as received: raw values, validated by {@link #validate} into a {@link RecallQuery}. */
public record RecallDraft(
        String query,
        Integer topK,
        String scope,
        List<String> types,
        List<String> tags,
        Weights weights,
        Double halfLifeDays,
        Integer candidates,
        String asOf) {

    /** Per-request weight overrides; a missing weight keeps its configured default. */
    public record Weights(Double alpha, Double beta, Double gamma, Double lexical) {

        public Weights(Double alpha, Double beta, Double gamma) {
            this(alpha, beta, gamma, null);
        }
    }

    public RecallQuery validate(RecallSettings settings) {
        Checks c = new Checks();
        if (query == null) {
            c.fail("query", "is required");
        } else if (query.isBlank()) {
            c.fail("query", "must not be empty or only white space");
        } else {
            int bytes = query.getBytes(StandardCharsets.UTF_8).length;
            if (bytes > settings.maxQueryBytes()) {
                throw new ContentTooLarge("query", bytes, settings.maxQueryBytes());
            }
        }
        Integer k = c.range("top_k", topK, 1, settings.maxTopK());
        Scope s = null;
        if (scope != null && !scope.equals("all")) {
            s = c.oneOf("scope", scope, Scope::fromWire, "user, team, all");
        }
        Set<MemoryType> typeSet = EnumSet.noneOf(MemoryType.class);
        if (types != null) {
            for (int i = 0; i < types.size(); i++) {
                MemoryType t = c.oneOf("types[" + i + "]", types.get(i), MemoryType::fromWire, MemoryType.ALLOWED);
                if (types.get(i) == null) {
                    c.fail("types[" + i + "]", "must not be null");
                }
                if (t != null) {
                    typeSet.add(t);
                }
            }
        }
        List<Id> tagIds = c.ids("tags", tags, 32);
        RecallWeights base = settings.weights();
        Double alpha = null;
        Double beta = null;
        Double gamma = null;
        Double lexical = null;
        if (weights != null) {
            lexical = c.unitInterval("weights.lexical", weights.lexical());
            alpha = c.unitInterval("weights.alpha", weights.alpha());
            beta = c.unitInterval("weights.beta", weights.beta());
            gamma = c.unitInterval("weights.gamma", weights.gamma());
        }
        Double halfLife = halfLifeDays;
        if (halfLife != null && !(halfLife > 0 && halfLife <= RecallWeights.MAX_HALF_LIFE_DAYS)) {
            c.fail(
                    "half_life_days",
                    "must be above 0 and at most " + (long) RecallWeights.MAX_HALF_LIFE_DAYS + " days (got " + halfLife
                            + ")");
            halfLife = null;
        }
        int effectiveTopK = k == null ? settings.defaultTopK() : k;
        Integer pool = c.range("candidates", candidates, 1, settings.maxCandidates());
        if (pool != null && pool < effectiveTopK) {
            c.fail("candidates", "must be at least top_k (" + effectiveTopK + ")");
        }
        Instant asOfTime = c.instant("as_of", asOf);
        c.throwIfAny();
        double a = alpha != null ? alpha : base.alpha();
        double b = beta != null ? beta : base.beta();
        double g = gamma != null ? gamma : base.gamma();
        double sum = a + b + g;
        if (sum > 1) {
            // Overrides on top of the defaults can sum past 1 ({"alpha": 1} with β and γ at 0.15), which put scores
            // above 1. Dividing by the sum keeps every score in [0, 1] and changes no order.
            a /= sum;
            b /= sum;
            g /= sum;
        }
        RecallWeights w = new RecallWeights(
                a, b, g, halfLife != null ? halfLife : base.halfLifeDays(), lexical != null ? lexical : base.lexical());
        int effectivePool = pool != null
                ? pool
                : Math.min(settings.maxCandidates(), Math.max(settings.defaultCandidates(), 5 * effectiveTopK));
        return new RecallQuery(
                query,
                effectiveTopK,
                s,
                typeSet,
                tagIds == null ? Set.of() : Set.copyOf(tagIds),
                w,
                effectivePool,
                asOfTime);
    }
}
