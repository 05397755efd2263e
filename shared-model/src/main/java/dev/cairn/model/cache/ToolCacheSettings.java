package dev.cairn.model.cache;

import java.time.Duration;
import java.util.Map;

/**
 * @param sessionCapBytes most bytes of results one session keeps (the eviction bound)
 * @param maxEntryShare   largest single result as a share of the cap; larger ones are refused with 413
 * @param defaultTtl      TTL of a tool not in {@code toolTtls} when the request names none
 * @param maxTtl          longest TTL a request may ask for
 * @param toolTtls        TTL per tool name
 * @param maxSessions     sessions whose first level one instance keeps in memory (least recently used go)
 * @param counterFlush    how often hit and miss counts are added to the shared counters
 */
public record ToolCacheSettings(
        long sessionCapBytes,
        double maxEntryShare,
        Duration defaultTtl,
        Duration maxTtl,
        Map<String, Duration> toolTtls,
        int maxSessions,
        Duration counterFlush) {

    public ToolCacheSettings {
        if (sessionCapBytes < 1024
                || !(maxEntryShare > 0 && maxEntryShare <= 1)
                || defaultTtl.isNegative()
                || defaultTtl.isZero()
                || maxTtl.compareTo(defaultTtl) < 0
                || maxSessions < 1) {
            throw new IllegalArgumentException("bad tool-cache settings");
        }
        toolTtls = Map.copyOf(toolTtls);
    }

    public static ToolCacheSettings defaults() {
        return new ToolCacheSettings(
                8L * 1024 * 1024,
                0.2,
                Duration.ofMinutes(5),
                Duration.ofHours(24),
                Map.of(
                        "read_file",
                        Duration.ofMinutes(10),
                        "list_directory",
                        Duration.ofMinutes(2),
                        "web_search",
                        Duration.ofMinutes(1),
                        "api_call",
                        Duration.ofMinutes(1)),
                10_000,
                Duration.ofSeconds(1));
    }

    public long maxEntryBytes() {
        return (long) (sessionCapBytes * maxEntryShare);
    }

    public Duration ttlOf(String tool) {
        return toolTtls.getOrDefault(tool, defaultTtl);
    }
}
