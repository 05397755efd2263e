package dev.cairn.app;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/** The tool-result cache, the usage ledger's prices and context assembly (README: "Caches and prompt planning"). */
@ConfigMapping(prefix = "cairn")
public interface CacheConfig {

    ToolCache toolCache();

    Usage usage();

    Context context();

    interface ToolCache {
        /** Most bytes of results one session keeps. */
        @WithDefault("8388608")
        long sessionCapBytes();

        /** Largest single result, as a share of the session cap (larger: 413). */
        @WithDefault("0.2")
        double maxEntryShare();

        @WithDefault("5m")
        Duration defaultTtl();

        @WithDefault("24h")
        Duration maxTtl();

        /** TTL per tool, e.g. {@code cairn.tool-cache.ttl.read_file=10m}; added to the built-in defaults. */
        Map<String, Duration> ttl();

        @WithDefault("10000")
        int maxSessions();

        @WithDefault("1s")
        Duration counterFlush();
    }

    interface Usage {
        /**
         * USD per million tokens by model name, e.g. {@code cairn.usage.prices."claude-sonnet-4-5".input=3}; added to
         * (or replacing) the built-in table.
         */
        Map<String, Price> prices();

        @WithDefault("1.25")
        double cacheWriteMultiplier();

        @WithDefault("0.1")
        double cacheReadMultiplier();

        /** Larger token counts in one usage report are refused as absurd. */
        @WithDefault("10000000")
        long maxTokensPerField();
    }

    interface Price {
        double input();

        double output();
    }

    interface Context {
        /** Minimum cacheable prefix by model name, added to the built-in table. */
        Map<String, Integer> minCacheableTokens();

        @WithDefault("1024")
        int defaultMinCacheableTokens();

        @WithDefault("8")
        int memories();

        @WithDefault("200000")
        int defaultMaxTokens();
    }
}
