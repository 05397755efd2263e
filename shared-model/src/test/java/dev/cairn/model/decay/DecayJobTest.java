package dev.cairn.model.decay;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryColdStore;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import dev.cairn.model.testkit.Memories;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The decay job on the in-memory stores: archive, idempotence, resume, restore, expiry. */
class DecayJobTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final Instant NOW = Instant.parse("2026-11-30T03:00:00Z");

    private final HashingEmbedder embedder = new HashingEmbedder();
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final InMemoryVectorIndex index = new InMemoryVectorIndex();
    private final InMemoryColdStore cold = new InMemoryColdStore(Clock.fixed(NOW, ZoneOffset.UTC));
    private final Indexer indexer = new Indexer(store, index, embedder);

    private Memory seed(String id, String content, double importance, int daysAgo, int accesses, MemoryState state) {
        Instant created = NOW.minus(Duration.ofDays(daysAgo));
        Memory m = Memories.memory()
                .id(id)
                .team(TEAM)
                .content(content)
                .importance(importance)
                .confidence(0.9)
                .createdAt(created)
                .accessed(accesses, null)
                .state(state)
                .build();
        store.insertAll(List.of(m));
        indexer.index(List.of(m));
        return m;
    }

    private DecayJob job(int pageSize) {
        return new DecayJob(store, cold, indexer, DecayPolicy.defaults(), Clock.fixed(NOW, ZoneOffset.UTC), pageSize);
    }

    private boolean searchable(String id, String text) {
        return index
                .search(new VectorIndex.Search(
                        new VectorIndex.Filter(TEAM, ALICE.user(), null, Set.of(), Set.of()),
                        embedder.embedQuery(text),
                        embedder.modelId(),
                        text,
                        10))
                .stream()
                .anyMatch(c -> c.id().value().equals(id));
    }

    @Test
    void aFadedMemory_shouldBeArchived_aSecondRunChangesNothing_andRestoreBringsItBack() {
        seed("m-old", "The 2019 offsite was in Porto", 0.3, 400, 0, MemoryState.ACTIVE);
        seed("m-new", "Deploys go out on Tuesdays", 0.8, 2, 0, MemoryState.ACTIVE);
        seed("m-used", "The VPN endpoint is vpn.acme.internal", 0.3, 400, 200, MemoryState.ACTIVE);

        DecayJob.Progress first = job(100).run(TEAM, null, () -> false);
        assertThat(first.scanned()).isEqualTo(3);
        assertThat(first.archived()).isEqualTo(1);
        assertThat(first.resumeAfter()).isNull();
        Memory stub = store.get(TEAM, new Id("m-old")).orElseThrow();
        assertThat(stub.state()).isEqualTo(MemoryState.ARCHIVED);
        assertThat(stub.content()).isEmpty();
        assertThat(cold.get(TEAM, new Id("m-old")).orElseThrow().content()).isEqualTo("The 2019 offsite was in Porto");
        assertThat(searchable("m-old", "Where was the 2019 offsite?")).isFalse();
        // used often: stretched time keeps it
        assertThat(store.get(TEAM, new Id("m-used")).orElseThrow().state()).isEqualTo(MemoryState.ACTIVE);

        DecayJob.Progress second = job(100).run(TEAM, null, () -> false);
        assertThat(second.archived()).isZero();
        assertThat(second.deleted()).isZero();
        assertThat(store.get(TEAM, new Id("m-old")).orElseThrow().version()).isEqualTo(stub.version());

        Restore restore = new Restore(store, cold, indexer, Clock.fixed(NOW, ZoneOffset.UTC));
        Memory back = restore.restore(ALICE, TEAM, new Id("m-old"));
        assertThat(back.state()).isEqualTo(MemoryState.ACTIVE);
        // the answer is the memory as stored now: the restore counted as a use
        assertThat(back.accessCount())
                .isEqualTo(store.get(TEAM, new Id("m-old")).orElseThrow().accessCount());
        assertThat(back.lastAccessedAt()).isEqualTo(NOW);
        assertThat(store.get(TEAM, new Id("m-old")).orElseThrow().content()).isEqualTo("The 2019 offsite was in Porto");
        assertThat(searchable("m-old", "Where was the 2019 offsite?")).isTrue();
        assertThat(cold.get(TEAM, new Id("m-old"))).isEmpty();
        assertThatThrownBy(() -> restore.restore(ALICE, TEAM, new Id("m-old")))
                .isInstanceOf(InvalidInput.class)
                .hasMessageContaining("which is active: only an archived memory can be restored");
        // restored = used now: the next run keeps it
        assertThat(job(100).run(TEAM, null, () -> false).archived()).isZero();
    }

    @Test
    void anArchivedMemoryPastExpiry_shouldBeDeleted_withItsColdCopy() {
        Memory m = seed("m-gone", "An old archived note", 0.1, 900, 0, MemoryState.ARCHIVED);
        cold.put(m, NOW.minus(Duration.ofDays(400)));
        Memory recent = seed("m-recent", "A note archived last week", 0.1, 900, 0, MemoryState.ARCHIVED);
        cold.put(recent, NOW.minus(Duration.ofDays(7)));
        DecayJob.Progress p = job(100).run(TEAM, null, () -> false);
        assertThat(p.deleted()).isEqualTo(1);
        assertThat(store.get(TEAM, new Id("m-gone"))).isEmpty();
        assertThat(cold.get(TEAM, new Id("m-gone"))).isEmpty();
        assertThat(store.get(TEAM, new Id("m-recent"))).isPresent();
        assertThat(cold.get(TEAM, new Id("m-recent"))).isPresent();
    }

    @Test
    void aRunOutOfTime_shouldResumeWhereItStopped_andTogetherCoverTheTeamOnce() {
        for (int i = 0; i < 7; i++) {
            seed("m" + i, "Old note number " + i, 0.2, 300 + i, 0, MemoryState.ACTIVE);
        }
        DecayJob.Progress first = job(3).run(TEAM, null, () -> true); // time is up after every page
        assertThat(first.scanned()).isEqualTo(3);
        assertThat(first.resumeAfter()).isEqualTo(new Id("m2"));
        DecayJob.Progress second = job(3).run(TEAM, first.resumeAfter(), () -> false);
        assertThat(second.resumeAfter()).isNull();
        assertThat(first.scanned() + second.scanned()).isEqualTo(7);
        assertThat(first.archived() + second.archived()).isEqualTo(7);
    }
}
