package dev.cairn.embedded;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import io.smallrye.config.WithName;

/** Configuration of the embedded default: where the data lives and which embedding model runs. */
@ConfigMapping(prefix = "cairn")
public interface EmbeddedConfig {

    /** One directory holds everything: records, index, keys. */
    @WithName("data-dir")
    @WithDefault("./cairn-data")
    String dataDir();

    Embedding embedding();

    interface Embedding {
        /** {@code bge-small-en-v15-q} (English) or {@code bge-small-zh-v15-q} (Chinese). */
        @WithDefault(OnnxEmbedder.BGE_SMALL_EN)
        String model();
    }
}
