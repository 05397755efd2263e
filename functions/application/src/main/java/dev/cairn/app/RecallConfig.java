package dev.cairn.app;

import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.recall.RecallSettings;
import dev.cairn.model.recall.RecallWeights;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** {@code cairn.recall.*} and {@code cairn.memory.*}, mapped into the domain's own settings records. */
@ConfigMapping(prefix = "cairn")
public interface RecallConfig {

    Recall recall();

    Memory memory();

    interface Recall {
        @WithDefault("0.7")
        double alpha();

        @WithDefault("0.15")
        double beta();

        @WithDefault("0.15")
        double gamma();

        @WithDefault("30")
        double halfLifeDays();

        /** The share of the normalised BM25 score in relevance (RecallWeights.DEFAULT_LEXICAL). */
        @WithDefault("0.2")
        double lexical();

        /**
         * The share of a memory's context in its vector (DocumentVector.DEFAULT_CONTEXT_SHARE; 0 leaves the context to
         * the lexical side alone), below 1. Applies to memories indexed from then on.
         */
        @WithDefault("0")
        double contextVector();

        @WithDefault("10")
        int defaultTopK();

        @WithDefault("100")
        int maxTopK();

        @WithDefault("50")
        int candidates();

        @WithDefault("1000")
        int maxCandidates();

        @WithDefault("8192")
        int maxQueryBytes();
    }

    interface Memory {
        @WithDefault("32768")
        int maxContentBytes();

        @WithDefault("32")
        int maxTags();

        @WithDefault("64")
        int maxEvidence();

        @WithDefault("500")
        int maxBatch();
    }

    default RecallSettings settings() {
        Recall r = recall();
        return new RecallSettings(
                new RecallWeights(r.alpha(), r.beta(), r.gamma(), r.halfLifeDays(), r.lexical()),
                r.defaultTopK(),
                r.maxTopK(),
                r.candidates(),
                r.maxCandidates(),
                r.maxQueryBytes());
    }

    default MemoryLimits limits() {
        Memory m = memory();
        return new MemoryLimits(m.maxContentBytes(), m.maxTags(), m.maxEvidence(), m.maxBatch());
    }
}
