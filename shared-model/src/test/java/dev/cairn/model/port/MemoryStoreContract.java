package dev.cairn.model.port;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.ListQuery;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryPatch;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.Page;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.MemoryStore.IndexWork;
import dev.cairn.model.testkit.Memories;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * What every {@link MemoryStore} adapter must do, run against each real backend (SQLite file, dynalite) and the
 * in-memory fake the domain tests use. Each test works in a team of its own, so a shared backend needs no cleaning
 * between tests.
 */
public abstract class MemoryStoreContract {

    protected abstract MemoryStore store();

    private final Id team =
            new Id("t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));

    private Memory memory(String id, String user, String content, long createdSecond, double importance) {
        return Memories.memory()
                .id(id)
                .team(team)
                .user(user)
                .content(content)
                .tags("infra")
                .importance(importance)
                .confidence(0.9)
                .createdAt(Instant.ofEpochSecond(1_790_000_000L + createdSecond))
                .evidence("msg-1")
                .build();
    }

    private static MemoryPatch content(String c) {
        return new MemoryPatch(c, null, null, null, null, null, null, null);
    }

    @Test
    void insertThenGet_shouldRoundTripEveryField() {
        Memory m = memory("m1", "alice", "Alice drinks green tea", 1, 0.25);
        store().insertAll(List.of(m));
        assertThat(store().get(team, new Id("m1"))).contains(m);
        assertThat(store().get(new Id("elsewhere"), new Id("m1"))).isEmpty();
        assertThat(store().getAll(team, List.of(new Id("m1"), new Id("nope")))).containsExactly(m);
    }

    @Test
    void context_shouldRoundTrip_beReplaced_andBeClearedWithTheContentOnArchive() {
        Memory m = Memories.from(memory("m1", "alice", "Which database did we pick?", 1, 0.5))
                .context("The review picked DynamoDB for the sessions table.")
                .build();
        Memory plain = memory("m2", "alice", "no context here", 2, 0.5);
        store().insertEach(List.of(m, plain));
        assertThat(store().get(team, new Id("m1"))).contains(m);
        assertThat(store().getAll(team, List.of(new Id("m1"), new Id("m2"))))
                .extracting(Memory::context)
                .containsExactlyInAnyOrder("The review picked DynamoDB for the sessions table.", null);

        Memory v2 =
                m.withChanges(content("Which database did the review pick?")).withContext("DynamoDB, on-demand.");
        store().replace(v2);
        assertThat(store().get(team, new Id("m1")).orElseThrow().context()).isEqualTo("DynamoDB, on-demand.");

        // an archived stub keeps neither content nor context (DecayJob writes it so); replace must clear, not keep
        Memory stub = Memories.from(v2)
                .content("")
                .context(null)
                .version(3)
                .state(MemoryState.ARCHIVED)
                .build();
        store().replace(stub);
        assertThat(store().get(team, new Id("m1"))).contains(stub);
    }

    @Test
    void insert_shouldRefuseAnExistingId_neverOverwriting() {
        store().insertAll(List.of(memory("m1", null, "first", 1, 0.5)));
        assertThatThrownBy(() -> store().insertAll(List.of(memory("m1", null, "dup", 3, 0.5))))
                .isInstanceOf(VersionConflict.class);
        assertThat(store().get(team, new Id("m1")).orElseThrow().content()).isEqualTo("first");
    }

    @Test
    void insertEach_shouldWriteEveryNewItem_andReportOnlyTheOneThatFailed() {
        store().insertAll(List.of(memory("m3", null, "first", 1, 0.5)));
        List<Memory> batch = List.of(
                memory("m1", null, "one", 2, 0.5),
                memory("m2", null, "two", 3, 0.5),
                memory("m3", null, "dup", 4, 0.5),
                memory("m4", null, "four", 5, 0.5));

        Map<Id, CairnException> failed = store().insertEach(batch);

        assertThat(failed).containsOnlyKeys(new Id("m3"));
        assertThat(failed.get(new Id("m3"))).isInstanceOf(VersionConflict.class);
        assertThat(store().get(team, new Id("m3")).orElseThrow().content()).isEqualTo("first");
        for (String written : List.of("m1", "m2", "m4")) {
            assertThat(store().get(team, new Id(written))).as(written).isPresent();
        }
    }

    @Test
    void replace_shouldRefuseAStaleVersion_neverOverwriting() {
        Memory v1 = memory("m1", null, "v1", 1, 0.5);
        store().insertAll(List.of(v1));
        store().replace(v1.withChanges(content("v2")));
        assertThatThrownBy(() -> store().replace(v1.withChanges(content("stale"))))
                .isInstanceOf(VersionConflict.class);
        Memory stored = store().get(team, new Id("m1")).orElseThrow();
        assertThat(stored.content()).isEqualTo("v2");
        assertThat(stored.version()).isEqualTo(2);
    }

    @Test
    void concurrentWriters_ofOneVersion_shouldHaveExactlyOneWinner() throws Exception {
        Memory v1 = memory("m1", null, "v1", 1, 0.5);
        store().insertAll(List.of(v1));
        ExecutorService pool = Executors.newFixedThreadPool(6);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Boolean>> results = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Memory mine = v1.withChanges(content("writer " + i));
            results.add(pool.submit(() -> {
                go.await();
                try {
                    store().replace(mine);
                    return true;
                } catch (VersionConflict e) {
                    return false;
                }
            }));
        }
        go.countDown();
        int winners = 0;
        for (Future<Boolean> f : results) {
            winners += f.get() ? 1 : 0;
        }
        pool.shutdown();
        assertThat(winners).isEqualTo(1);
        assertThat(store().get(team, new Id("m1")).orElseThrow().version()).isEqualTo(2);
    }

    @Test
    void delete_shouldHideAtOnce_stayPendingForTheIndex_thenPurge() {
        store().insertAll(List.of(memory("m1", null, "doomed", 1, 0.5)));
        store().markIndexed(team, new Id("m1"), 1);
        assertThat(pendingOfThisTeam()).isEmpty();
        store().delete(team, new Id("m1"), 1);
        assertThat(store().get(team, new Id("m1"))).isEmpty();
        assertThat(pendingOfThisTeam()).singleElement().satisfies(w -> {
            assertThat(w.isDelete()).isTrue();
            assertThat(w.version()).isEqualTo(2);
        });
        assertThat(store().indexWork(team, new Id("m1"))).get().satisfies(w -> {
            assertThat(w.isDelete()).isTrue();
            assertThat(w.version()).isEqualTo(2);
        });
        assertThatThrownBy(() -> store().delete(team, new Id("m1"), 2)).isInstanceOf(NotFound.class);
        store().markIndexed(team, new Id("m1"), 2);
        assertThat(pendingOfThisTeam()).isEmpty();
        assertThat(store().indexWork(team, new Id("m1"))).isEmpty();
    }

    @Test
    void changes_shouldBePendingForTheIndex_untilMarkedAtTheirVersion() {
        Memory v1 = memory("m1", null, "v1", 1, 0.5);
        store().insertAll(List.of(v1));
        assertThat(pendingOfThisTeam()).extracting(IndexWork::version).containsExactly(1L);
        store().replace(v1.withChanges(content("v2")));
        store().markIndexed(team, new Id("m1"), 1); // a late mark for the old version changes nothing
        assertThat(pendingOfThisTeam()).extracting(IndexWork::version).containsExactly(2L);
        assertThat(store().indexWork(team, new Id("m1"))).get().satisfies(w -> {
            assertThat(w.isDelete()).isFalse();
            assertThat(w.memory().content()).isEqualTo("v2");
        });
        store().markIndexed(team, new Id("m1"), 2);
        assertThat(pendingOfThisTeam()).isEmpty();
        assertThat(store().indexWork(team, new Id("m1"))).isEmpty();
        assertThat(store().indexWork(team, new Id("never-written"))).isEmpty();
    }

    @Test
    void recordAccess_shouldCount_withoutChangingTheVersion() {
        store().insertAll(List.of(memory("m1", null, "read me", 1, 0.5)));
        Instant at = Instant.parse("2026-11-29T10:00:00Z");
        store().recordAccess(team, List.of(new Id("m1")), at);
        store().recordAccess(team, List.of(new Id("m1")), at.plusSeconds(5));
        Memory m = store().get(team, new Id("m1")).orElseThrow();
        assertThat(m.accessCount()).isEqualTo(2);
        assertThat(m.lastAccessedAt()).isEqualTo(at.plusSeconds(5));
        assertThat(m.version()).isEqualTo(1);
    }

    @Test
    void list_shouldPageEveryVisibleMemory_inBothOrders() {
        List<Memory> all = new ArrayList<>();
        for (int i = 0; i < 9; i++) {
            all.add(memory(String.format("m%02d", i), null, "team " + i, i, (i % 4) / 4.0));
        }
        all.add(memory("a1", "alice", "alice's", 20, 0.9));
        all.add(memory("b1", "bob", "bob's", 21, 0.9));
        store().insertAll(all);
        for (ListQuery.Order order : ListQuery.Order.values()) {
            Set<String> seen = new HashSet<>();
            List<Double> keys = new ArrayList<>();
            ListQuery.Cursor cursor = null;
            do {
                Page page = store().list(new ListQuery(team, new Id("alice"), null, null, null, order, 4, cursor));
                for (Memory m : page.memories()) {
                    assertThat(seen.add(m.id().value()))
                            .as("no repeats in " + order)
                            .isTrue();
                    keys.add(order == ListQuery.Order.RECENCY ? m.createdAt().toEpochMilli() : m.importance());
                }
                cursor = page.next();
            } while (cursor != null);
            assertThat(seen).as(order.name()).hasSize(10).contains("a1").doesNotContain("b1");
            assertThat(keys).isSortedAccordingTo((a, b) -> Double.compare(b, a));
        }
        Page mine = store().list(
                        new ListQuery(team, new Id("bob"), Scope.USER, null, null, ListQuery.Order.RECENCY, 50, null));
        assertThat(mine.memories()).extracting(m -> m.id().value()).containsExactly("b1");
    }

    @Test
    void scan_shouldWalkEveryLiveMemoryOfTheTeam_inIdOrder_resumableFromAnyId() {
        List<Memory> all = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            all.add(memory(String.format("s%02d", i), i % 2 == 0 ? null : "user" + i, "memory " + i, i, 0.5));
        }
        store().insertAll(all);
        store().delete(team, new Id("s03"), 1);
        List<String> walked = new ArrayList<>();
        Id after = null;
        for (List<Memory> page; !(page = store().scan(team, after, 2)).isEmpty(); ) {
            page.forEach(m -> walked.add(m.id().value()));
            after = page.get(page.size() - 1).id();
        }
        // every owner's memories, the deleted one left out, nothing from other items of the partition
        assertThat(walked).containsExactly("s00", "s01", "s02", "s04", "s05", "s06");
        assertThat(store().scan(team, new Id("s04"), 10))
                .extracting(m -> m.id().value())
                .containsExactly("s05", "s06");
        assertThat(store().scan(new Id("elsewhere"), null, 10)).isEmpty();
    }

    @Test
    void teams_shouldListEveryTeamHoldingMemories_onceEach_inIdOrder_pagedFromAnyTeam() {
        List<Id> mine = List.of(new Id(team.value() + "-a"), new Id(team.value() + "-b"), new Id(team.value() + "-c"));
        for (Id t : mine) {
            for (int i = 0; i < 3; i++) {
                Memory m = memory("k" + i, null, "memory " + i, i, 0.5);
                store().insertAll(List.of(Memories.from(m).team(t).build()));
            }
        }
        List<String> walked = new ArrayList<>();
        Id after = null;
        for (List<Id> page; !(page = store().teams(after, 2)).isEmpty(); ) {
            assertThat(page).hasSizeLessThanOrEqualTo(2);
            page.forEach(t -> walked.add(t.value()));
            after = page.get(page.size() - 1);
        }
        // other tests share the backend: their teams may be listed too, but in order and once each
        assertThat(walked)
                .isSorted()
                .doesNotHaveDuplicates()
                .containsSubsequence(mine.stream().map(Id::value).toList());
        assertThat(store().teams(mine.get(0), 2))
                .extracting(Id::value)
                .startsWith(mine.get(1).value());
    }

    @Test
    void decayCursor_shouldKeepWhatWasSaved_untilCleared() {
        store().saveDecayCursor("acme/m-0042");
        assertThat(store().decayCursor()).contains("acme/m-0042");
        store().saveDecayCursor("beta");
        assertThat(store().decayCursor()).contains("beta");
        store().saveDecayCursor(null);
        assertThat(store().decayCursor()).isEmpty();
    }

    private List<IndexWork> pendingOfThisTeam() {
        return store().pendingIndex(10_000).stream()
                .filter(w -> w.team().equals(team))
                .toList();
    }
}
