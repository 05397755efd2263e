package dev.cairn.app;

import dev.cairn.model.session.SessionService;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/** Session-buffer thresholds: fold the oldest {@code fold-count} messages once more than {@code fold-at} are recent. */
@ConfigMapping(prefix = "cairn.sessions")
public interface SessionConfig {

    /** M: recent messages that trigger folding. */
    @WithDefault("30")
    int foldAt();

    /** K: oldest messages folded at a time; M/2 when unset or 0. */
    @WithDefault("0")
    int foldCount();

    @WithDefault("32768")
    int maxMessageBytes();

    /** Largest rolling summary in characters; 4000 restores the budget used before. */
    @WithDefault("6000")
    int summaryChars();

    /**
     * The score a Chinese statement without a type cue needs to become a memory at session end (the embedded
     * extractor; other statements need 0.5). Raising it to 0.75 keeps fewer doubtful memories and misses more real
     * ones (README, Fact extraction).
     */
    @WithDefault("0.5")
    double extractionChineseBar();

    /** The domain's limits; K defaults to M/2. */
    default SessionService.Limits limits() {
        int k = foldCount() > 0 ? foldCount() : Math.max(1, foldAt() / 2);
        return new SessionService.Limits(foldAt(), k, maxMessageBytes(), summaryChars());
    }
}
