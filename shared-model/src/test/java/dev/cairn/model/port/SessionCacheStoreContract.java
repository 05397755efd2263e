package dev.cairn.model.port;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.cache.CachedResult;
import dev.cairn.model.cache.ContextPrefix;
import dev.cairn.model.cache.ContextSnapshot;
import dev.cairn.model.cache.HourlyUsage;
import dev.cairn.model.cache.ToolCache;
import dev.cairn.model.cache.ToolCacheSettings;
import dev.cairn.model.cache.UsageTotals;
import dev.cairn.model.cache.Validator;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.SessionAccess;
import dev.cairn.model.testkit.InMemorySessionStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link SessionCacheStore} must do, run on SQLite, on dynalite (+ S3Mock for large results) and on the
 * in-memory fake: entries round-trip, counters and usage are atomic under concurrent writers, snapshots restore with
 * their blocks, and two tool-cache instances over one store agree (a cold instance finds a warm one's entry; an
 * invalidation by one is seen by the other).
 */
public abstract class SessionCacheStoreContract {

    protected abstract SessionCacheStore store();

    private static final Id TEAM = new Id("cache-contract");
    private static final Instant HOUR = Instant.parse("2026-11-30T09:00:00Z");

    private static Id session() {
        return new Id("s" + System.nanoTime());
    }

    @Test
    void anEntry_shouldRoundTrip_withItsValidator_andBeDeletedOnce() {
        Id s = session();
        Instant t = Instant.parse("2026-11-30T10:00:00Z");
        CachedResult e = new CachedResult(
                TEAM,
                s,
                "k1",
                "read_file",
                "{\"text\":\"é ✓\"}",
                18,
                t,
                t.plusSeconds(60),
                new Validator(Validator.Kind.ETAG, "\"abc\""));
        store().putEntry(e);
        assertThat(store().entry(TEAM, s, "k1")).contains(e);
        assertThat(store().entries(TEAM, s)).extracting(CachedResult::key).containsExactly("k1");
        assertThat(store().deleteEntry(TEAM, s, "k1")).isTrue();
        assertThat(store().deleteEntry(TEAM, s, "k1")).isFalse();
        assertThat(store().entry(TEAM, s, "k1")).isEmpty();
    }

    @Test
    void aLargeResult_shouldRoundTrip() {
        Id s = session();
        String big = "\"" + "x".repeat(600 * 1024) + "\"";
        Instant t = Instant.now();
        store().putEntry(new CachedResult(TEAM, s, "big", "read_file", big, big.length(), t, t.plusSeconds(60), null));
        assertThat(store().entry(TEAM, s, "big").orElseThrow().result()).isEqualTo(big);
        assertThat(store().entries(TEAM, s)).extracting(CachedResult::bytes).containsExactly((long) big.length());
        assertThat(store().deleteEntry(TEAM, s, "big")).isTrue();
    }

    @Test
    void countersAndUsage_shouldLoseNothing_underEightConcurrentWriters() throws Exception {
        Id s = session();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            done.add(pool.submit(() -> {
                for (int i = 0; i < 50; i++) {
                    store().addCounters(TEAM, s, 1, 2, 0, i == 0);
                    store().addUsage(TEAM, s, "claude-sonnet-4-5", HOUR, new UsageTotals(1, 10, 20, 30, 40));
                }
            }));
        }
        for (Future<?> f : done) {
            f.get();
        }
        pool.shutdown();
        assertThat(store().counters(TEAM, s)).isEqualTo(new SessionCacheStore.Counters(400, 800, 0, 8));
        assertThat(store().usage(TEAM, s))
                .isEqualTo(Map.of("claude-sonnet-4-5", new UsageTotals(400, 4000, 8000, 12000, 16000)));
        assertThat(store().hourlyUsage(TEAM, s))
                .containsExactly(
                        new HourlyUsage(HOUR, "claude-sonnet-4-5", new UsageTotals(400, 4000, 8000, 12000, 16000)));
    }

    @Test
    void hourlyUsage_shouldSumPerHourAndModel_oldestFirst_andAddUpToTheTotals() {
        Id s = session();
        Instant later = HOUR.plusSeconds(3 * 3600);
        store().addUsage(TEAM, s, "claude-sonnet-4-5", later, new UsageTotals(1, 1, 2, 3, 4));
        store().addUsage(TEAM, s, "claude-haiku-4-5", HOUR, new UsageTotals(1, 5, 5, 5, 5));
        store().addUsage(TEAM, s, "claude-sonnet-4-5", HOUR, new UsageTotals(1, 10, 20, 30, 40));
        store().addUsage(TEAM, s, "claude-sonnet-4-5", HOUR, new UsageTotals(1, 10, 20, 30, 40));

        assertThat(store().hourlyUsage(TEAM, s))
                .containsExactly(
                        new HourlyUsage(HOUR, "claude-haiku-4-5", new UsageTotals(1, 5, 5, 5, 5)),
                        new HourlyUsage(HOUR, "claude-sonnet-4-5", new UsageTotals(2, 20, 40, 60, 80)),
                        new HourlyUsage(later, "claude-sonnet-4-5", new UsageTotals(1, 1, 2, 3, 4)));
        assertThat(store().usage(TEAM, s))
                .isEqualTo(Map.of(
                        "claude-sonnet-4-5", new UsageTotals(3, 21, 42, 63, 84),
                        "claude-haiku-4-5", new UsageTotals(1, 5, 5, 5, 5)));
        assertThat(store().hourlyUsage(TEAM, session())).isEmpty();
    }

    @Test
    void aSnapshot_shouldRestoreWithItsBlocks_storedOncePerSession() {
        Id s = session();
        store().putPrefix(TEAM, s, new ContextPrefix("system text", "[{\"name\":\"t\"}]", "claude-x"));
        assertThat(store().prefix(TEAM, s))
                .contains(new ContextPrefix("system text", "[{\"name\":\"t\"}]", "claude-x"));
        ContextSnapshot first = new ContextSnapshot(
                3,
                Instant.parse("2026-11-30T10:00:00Z"),
                "claude-x",
                9000,
                List.of(
                        new ContextSnapshot.Block("system", "h1", 1200, "1h"),
                        new ContextSnapshot.Block("messages", "h2", 40, "5m")));
        store().putSnapshot(TEAM, s, first, Map.of("h1", "system text", "h2", "user: hi\n"));
        ContextSnapshot second = new ContextSnapshot(
                5,
                Instant.parse("2026-11-30T10:01:00Z"),
                "claude-x",
                9000,
                List.of(
                        new ContextSnapshot.Block("system", "h1", 1200, "1h"),
                        new ContextSnapshot.Block("messages", "h3", 60, null)));
        store().putSnapshot(TEAM, s, second, Map.of("h1", "system text", "h3", "user: hi\nuser: more\n"));
        assertThat(store().snapshot(TEAM, s, 3)).contains(first);
        assertThat(store().snapshot(TEAM, s, 5)).contains(second);
        assertThat(store().snapshot(TEAM, s, 4)).isEmpty();
        assertThat(store().blocks(TEAM, s, List.of("h1", "h3")))
                .isEqualTo(Map.of("h1", "system text", "h3", "user: hi\nuser: more\n"));
    }

    @Test
    void twoInstances_shouldAgree_aColdOneFindsTheEntry_andSeesTheOthersInvalidation() throws Exception {
        Id s = session();
        Caller alice = new Caller(new Id("alice"), Set.of(TEAM));
        ToolCacheSettings settings = new ToolCacheSettings(
                1024 * 1024,
                0.2,
                java.time.Duration.ofMinutes(5),
                java.time.Duration.ofHours(1),
                Map.of(),
                100,
                java.time.Duration.ofMillis(50));
        SessionAccess access = new SessionAccess(new InMemorySessionStore(), Clock.systemUTC());
        ToolCache warm = new ToolCache(store(), access, SecretScanner.bundled(), Clock.systemUTC(), settings);
        ToolCache cold = new ToolCache(store(), access, SecretScanner.bundled(), Clock.systemUTC(), settings);
        warm.put(alice, TEAM, s, new ToolCache.PutDraft("read_file", "{\"path\":\"a\"}", "r", "\"r\"", null, null));
        ToolCache.LookupDraft q = new ToolCache.LookupDraft("read_file", "{\"path\":\"a\"}", null);
        assertThat(cold.lookup(alice, TEAM, s, q).hit()).isTrue();
        warm.invalidate(alice, TEAM, s, "read");
        Thread.sleep(120); // beyond the counter flush: the other instance re-reads the generation
        assertThat(cold.lookup(alice, TEAM, s, q).reason()).isEqualTo("miss");
        assertThat(cold.stats(alice, TEAM, s).hits()).isEqualTo(1);
    }
}
