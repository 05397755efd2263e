package dev.cairn.app;

import dev.cairn.model.consolidate.FactComparison;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Thresholds of consolidation before write (see {@code FactComparison}). */
@ConfigMapping(prefix = "cairn.consolidation")
public interface ConsolidationConfig {

    /** Cosine similarity below which two statements are never the same subject. */
    @WithDefault("0.7")
    double minSimilarity();

    /** Shared ÷ all content tokens needed for "same subject". */
    @WithDefault("0.5")
    double minOverlap();

    /** Most tokens the one changed stretch may hold, on either side, for a new value of the same subject. */
    @WithDefault("3")
    int maxChanged();

    /** Similar memories compared with each new fact. */
    @WithDefault("24")
    int candidates();

    default FactComparison.Thresholds thresholds() {
        return new FactComparison.Thresholds(minSimilarity(), minOverlap(), maxChanged());
    }
}
