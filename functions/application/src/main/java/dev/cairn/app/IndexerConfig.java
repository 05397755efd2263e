package dev.cairn.app;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The background index poller ({@code cairn.indexer.*}), whatever record store and index are selected. */
@ConfigMapping(prefix = "cairn.indexer")
public interface IndexerConfig {

    /** How often the background indexer looks for records whose index entry lags. */
    @WithDefault("2s")
    Duration interval();

    @WithDefault("256")
    int batchSize();

    /**
     * Whether this process polls for lagging index entries (and converges at start-up). Off in Lambda, where the
     * DynamoDB Streams function does this work and a frozen instance cannot poll.
     */
    @WithDefault("true")
    boolean poll();
}
