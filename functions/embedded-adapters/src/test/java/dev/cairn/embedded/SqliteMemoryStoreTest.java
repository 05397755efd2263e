package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.ListQuery;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryPatch;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Page;
import dev.cairn.model.port.MemoryStore.IndexWork;
import dev.cairn.model.testkit.Memories;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SqliteMemoryStoreTest {

    private static final Id ACME = new Id("acme");

    @TempDir
    Path dir;

    private SqliteMemoryStore open() {
        return new SqliteMemoryStore(dir.resolve("memories.db"));
    }

    /** A team fact of {@code acme} with one tag. */
    private static Memory team(String id, String content) {
        return Memories.memory().id(id).content(content).tags("t1").build();
    }

    private static Memory preference(String user, String id, String content) {
        return Memories.memory()
                .id(id)
                .user(user)
                .type(MemoryType.PREFERENCE)
                .content(content)
                .build();
    }

    private static MemoryPatch content(String c) {
        return new MemoryPatch(c, null, null, null, null, null, null, null);
    }

    @Test
    void insertThenGet_shouldReturnTheSameRecord() {
        try (SqliteMemoryStore store = open()) {
            Memory m = preference("alice", "m1", "Alice likes tea");
            store.insertAll(List.of(m));
            assertThat(store.get(ACME, new Id("m1"))).contains(m);
            assertThat(store.get(new Id("other"), new Id("m1"))).isEmpty();
        }
    }

    @Test
    void insert_shouldFail_whenTheIdExists_andChangeNothing() {
        try (SqliteMemoryStore store = open()) {
            store.insertAll(List.of(team("m1", "first")));
            assertThatThrownBy(() -> store.insertAll(List.of(team("m2", "second"), team("m1", "dup"))))
                    .isInstanceOf(VersionConflict.class);
            assertThat(store.get(ACME, new Id("m1")).orElseThrow().content()).isEqualTo("first");
            assertThat(store.get(ACME, new Id("m2")))
                    .as("the batch is all or nothing")
                    .isEmpty();
        }
    }

    @Test
    void replace_shouldRefuseAStaleVersion_neverOverwriting() {
        try (SqliteMemoryStore store = open()) {
            Memory v1 = team("m1", "v1");
            store.insertAll(List.of(v1));
            Memory v2 = v1.withChanges(content("v2"));
            store.replace(v2);
            Memory staleWriter = v1.withChanges(content("stale"));
            assertThatThrownBy(() -> store.replace(staleWriter))
                    .isInstanceOf(VersionConflict.class)
                    .satisfies(e -> {
                        assertThat(((VersionConflict) e).expected()).isEqualTo(1);
                        assertThat(((VersionConflict) e).actual()).isEqualTo(2);
                    });
            assertThat(store.get(ACME, new Id("m1")).orElseThrow().content()).isEqualTo("v2");
        }
    }

    @Test
    void concurrentWriters_ofTheSameVersion_shouldProduceExactlyOneWinner() throws Exception {
        try (SqliteMemoryStore store = open()) {
            Memory v1 = team("m1", "v1");
            store.insertAll(List.of(v1));
            int writers = 8;
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(writers);
            List<java.util.concurrent.Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                Memory mine = v1.withChanges(content("writer " + i));
                results.add(pool.submit(() -> {
                    go.await();
                    try {
                        store.replace(mine);
                        return true;
                    } catch (VersionConflict e) {
                        return false;
                    }
                }));
            }
            go.countDown();
            int winners = 0;
            for (var f : results) {
                winners += f.get() ? 1 : 0;
            }
            pool.shutdown();
            assertThat(winners).isEqualTo(1);
            Memory stored = store.get(ACME, new Id("m1")).orElseThrow();
            assertThat(stored.version()).isEqualTo(2);
            assertThat(stored.content()).startsWith("writer ");
        }
    }

    @Test
    void delete_shouldHideAtOnce_keepATombstoneUntilIndexed_thenPurge() {
        try (SqliteMemoryStore store = open()) {
            store.insertAll(List.of(team("m1", "doomed")));
            store.markIndexed(ACME, new Id("m1"), 1);
            assertThat(store.pendingIndex(10)).isEmpty();

            store.delete(ACME, new Id("m1"), 1);
            assertThat(store.get(ACME, new Id("m1"))).isEmpty();
            List<IndexWork> pending = store.pendingIndex(10);
            assertThat(pending).singleElement().satisfies(w -> {
                assertThat(w.isDelete()).isTrue();
                assertThat(w.version()).isEqualTo(2);
            });
            assertThatThrownBy(() -> store.delete(ACME, new Id("m1"), 2)).isInstanceOf(NotFound.class);

            store.markIndexed(ACME, new Id("m1"), 2);
            assertThat(store.pendingIndex(10)).isEmpty();
        }
    }

    @Test
    void recordAccess_shouldCountReads_withoutChangingTheVersion() {
        try (SqliteMemoryStore store = open()) {
            store.insertAll(List.of(team("m1", "read me")));
            Instant at = Instant.parse("2026-11-29T10:00:00Z");
            store.recordAccess(ACME, List.of(new Id("m1")), at);
            store.recordAccess(ACME, List.of(new Id("m1")), at.minusSeconds(60));
            Memory m = store.get(ACME, new Id("m1")).orElseThrow();
            assertThat(m.accessCount()).isEqualTo(2);
            assertThat(m.lastAccessedAt()).isEqualTo(at);
            assertThat(m.version()).isEqualTo(1);
        }
    }

    @Test
    void list_shouldPageByKeyset_andOnlyShowWhatTheViewerMaySee() {
        try (SqliteMemoryStore store = open()) {
            List<Memory> all = new ArrayList<>();
            Instant base = Instant.parse("2026-11-01T00:00:00Z");
            for (int i = 0; i < 9; i++) {
                all.add(Memories.from(team("t" + i, "team " + i))
                        .createdAt(base.plusSeconds(i % 3))
                        .importance(i / 10.0)
                        .build());
            }
            all.add(preference("alice", "a1", "alice's"));
            all.add(preference("bob", "b1", "bob's"));
            all.add(Memories.from(team("o1", "other team's")).team("other").build());
            store.insertAll(all);

            Set<String> seen = new java.util.HashSet<>();
            ListQuery.Cursor cursor = null;
            do {
                Page page = store.list(
                        new ListQuery(ACME, new Id("alice"), null, null, null, ListQuery.Order.RECENCY, 4, cursor));
                page.memories()
                        .forEach(m -> assertThat(seen.add(m.id().value()))
                                .as("no repeats")
                                .isTrue());
                cursor = page.next();
            } while (cursor != null);
            assertThat(seen).hasSize(10).contains("a1").doesNotContain("b1", "o1");
        }
    }

    @Test
    void data_shouldSurviveReopening() {
        try (SqliteMemoryStore store = open()) {
            store.insertAll(List.of(team("m1", "durable")));
        }
        try (SqliteMemoryStore store = open()) {
            assertThat(store.get(ACME, new Id("m1")).orElseThrow().content()).isEqualTo("durable");
            assertThat(store.pendingIndex(10)).hasSize(1);
        }
    }
}
