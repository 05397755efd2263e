package dev.cairn.model.cache;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.SessionAccess;
import dev.cairn.model.testkit.InMemorySessionCacheStore;
import dev.cairn.model.testkit.InMemorySessionStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Eviction under the session's byte cap is frequency-aware, and what the first level evicts leaves the store too. */
class ToolCacheEvictionTest {

    private static final Id TEAM = new Id("acme");
    private static final Id SESSION = new Id("s1");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));

    private static ToolCache.PutDraft file(String path, int bytes) {
        String result = "\"" + "x".repeat(bytes - 2) + "\"";
        return new ToolCache.PutDraft("read_file", "{\"path\":\"" + path + "\"}", result, result, null, null);
    }

    private static ToolCache.LookupDraft read(String path) {
        return new ToolCache.LookupDraft("read_file", "{\"path\":\"" + path + "\"}", null);
    }

    @Test
    void aBurstOfOneOffResults_shouldNotPushOutTheFrequentlyUsedOnes_andTheStoreStaysUnderTheCap() {
        long cap = 64 * 1024;
        InMemorySessionCacheStore store = new InMemorySessionCacheStore();
        ToolCache cache = new ToolCache(
                store,
                new SessionAccess(new InMemorySessionStore(), Clock.systemUTC()),
                SecretScanner.bundled(),
                Clock.systemUTC(),
                new ToolCacheSettings(
                        cap, 0.2, Duration.ofMinutes(10), Duration.ofHours(1), Map.of(), 100, Duration.ofSeconds(1)));
        for (int i = 0; i < 12; i++) { // the session has been busy: the cache is more than half full
            cache.put(ALICE, TEAM, SESSION, file("early-" + i, 4096));
        }
        for (int i = 0; i < 4; i++) {
            cache.put(ALICE, TEAM, SESSION, file("hot-" + i, 4096));
        }
        for (int round = 0; round < 20; round++) {
            for (int i = 0; i < 4; i++) {
                assertThat(cache.lookup(ALICE, TEAM, SESSION, read("hot-" + i)).hit())
                        .isTrue();
            }
        }
        // a scan over 100 files read once each, while the agent keeps coming back to its 4 files every 20 reads:
        // more new entries arrive between two uses than the cap holds (16), so recency alone would lose them
        for (int i = 0; i < 100; i++) {
            cache.put(ALICE, TEAM, SESSION, file("cold-" + i, 4096));
            if (i % 20 == 19) {
                for (int h = 0; h < 4; h++) {
                    assertThat(cache.lookup(ALICE, TEAM, SESSION, read("hot-" + h))
                                    .hit())
                            .as("hot-%d after %d", h, i)
                            .isTrue();
                }
            }
        }
        long stored = store.entries(TEAM, SESSION).stream()
                .mapToLong(CachedResult::bytes)
                .sum();
        assertThat(stored).isLessThanOrEqualTo(cap);
        ToolCache.Stats stats = cache.stats(ALICE, TEAM, SESSION);
        assertThat(stats.evictions()).isGreaterThanOrEqualTo(12 + 4 + 100 - cap / 4096);
        assertThat(stats.bytes()).isEqualTo(stored);
    }
}
