package dev.cairn.embedded;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;
import java.time.Duration;

/** Configuration of the embedded default: where the data lives and which embedding model runs. */
@ConfigMapping(prefix = "cairn")
public interface EmbeddedConfig {

    /** One directory holds everything: records, index, keys. */
    @WithName("data-dir")
    @WithDefault("./cairn-data")
    String dataDir();

    Embedding embedding();

    Indexer indexer();

    interface Embedding {
        /** {@code bge-small-en-v15-q} (English) or {@code bge-small-zh-v15-q} (Chinese). */
        @WithDefault(OnnxEmbedder.BGE_SMALL_EN)
        String model();
    }

    interface Indexer {
        /** How often the background indexer looks for records whose index entry lags. */
        @WithDefault("2s")
        Duration interval();

        @WithDefault("256")
        int batchSize();

        /**
         * Whether this process polls for lagging index entries (and converges at start-up). Off in Lambda, where the
         * DynamoDB Streams handler does this work and a frozen instance cannot poll.
         */
        @WithDefault("true")
        boolean poll();
    }
}
