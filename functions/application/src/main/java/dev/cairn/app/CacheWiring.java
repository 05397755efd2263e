package dev.cairn.app;

import dev.cairn.model.cache.ContextAssembler;
import dev.cairn.model.cache.ToolCache;
import dev.cairn.model.cache.ToolCacheSettings;
import dev.cairn.model.cache.UsageLedger;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.SessionService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/** Builds the tool cache, the usage ledger and context assembly from {@link CacheConfig}. */
@ApplicationScoped
public class CacheWiring {

    /**
     * List prices in USD per million tokens (input, output) from Anthropic's pricing page (claude.com/pricing, as of
     * 2026-11); Bedrock's on-demand prices for the same models are the same. Configuration adds or overrides.
     */
    static final Map<String, UsageLedger.Price> PRICES = Map.of(
            "claude-opus-4-5", new UsageLedger.Price(5, 25),
            "claude-opus-4-1", new UsageLedger.Price(15, 75),
            "claude-opus-4", new UsageLedger.Price(15, 75),
            "claude-sonnet-4-5", new UsageLedger.Price(3, 15),
            "claude-sonnet-4", new UsageLedger.Price(3, 15),
            "claude-3-7-sonnet", new UsageLedger.Price(3, 15),
            "claude-haiku-4-5", new UsageLedger.Price(1, 5),
            "claude-3-5-haiku", new UsageLedger.Price(0.8, 4));

    /** Minimum cacheable prompt lengths (Anthropic's prompt-caching documentation); others use the default. */
    static final Map<String, Integer> MIN_CACHEABLE = Map.of(
            "claude-opus-4-5", 4096,
            "claude-haiku-4-5", 4096,
            "claude-3-5-haiku", 2048,
            "claude-3-haiku", 2048,
            "claude-sonnet-4-5", 1024,
            "claude-sonnet-4", 1024,
            "claude-opus-4-1", 1024,
            "claude-opus-4", 1024,
            "claude-3-7-sonnet", 1024);

    @Produces
    @ApplicationScoped
    ToolCache toolCache(
            SessionCacheStore store, SessionService sessions, SecretScanner scanner, Clock clock, CacheConfig config) {
        CacheConfig.ToolCache t = config.toolCache();
        Map<String, Duration> ttls = new HashMap<>(ToolCacheSettings.defaults().toolTtls());
        ttls.putAll(t.ttl());
        return new ToolCache(
                store,
                sessions.access(),
                scanner,
                clock,
                new ToolCacheSettings(
                        t.sessionCapBytes(),
                        t.maxEntryShare(),
                        t.defaultTtl(),
                        t.maxTtl(),
                        ttls,
                        t.maxSessions(),
                        t.counterFlush()));
    }

    @Produces
    @ApplicationScoped
    UsageLedger usageLedger(SessionCacheStore store, SessionService sessions, CacheConfig config, Clock clock) {
        Map<String, UsageLedger.Price> prices = new HashMap<>(PRICES);
        config.usage().prices().forEach((model, p) -> prices.put(model, new UsageLedger.Price(p.input(), p.output())));
        return new UsageLedger(
                store,
                sessions.access(),
                new UsageLedger.Settings(
                        prices,
                        config.usage().cacheWriteMultiplier(),
                        config.usage().cacheReadMultiplier(),
                        config.usage().maxTokensPerField()),
                clock);
    }

    /** Context assembly recalls through the one {@link RecallService}: {@code cairn.recall.*} and its executor. */
    @Produces
    @ApplicationScoped
    ContextAssembler contextAssembler(
            SessionService sessions,
            RecallService recall,
            MemoryService memories,
            SessionCacheStore store,
            SecretGate secrets,
            Clock clock,
            CacheConfig config) {
        Map<String, Integer> minimums = new HashMap<>(MIN_CACHEABLE);
        minimums.putAll(config.context().minCacheableTokens());
        return new ContextAssembler(
                sessions,
                recall,
                memories,
                store,
                secrets,
                clock,
                new ContextAssembler.Settings(
                        minimums,
                        config.context().defaultMinCacheableTokens(),
                        config.context().memories(),
                        config.context().defaultMaxTokens()));
    }
}
