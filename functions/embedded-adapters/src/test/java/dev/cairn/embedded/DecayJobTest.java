package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.DecayPolicy;
import dev.cairn.model.decay.Restore;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The decay job on the embedded stores: archive, idempotence, resume, restore, expiry. */
class DecayJobTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final Instant NOW = Instant.parse("2026-11-30T03:00:00Z");
    private static OnnxEmbedder embedder;

    @TempDir
    Path dir;
    private SqliteMemoryStore store;
    private LuceneVectorIndex index;
    private FileColdStore cold;
    private Indexer indexer;

    @BeforeAll
    static void model() {
        embedder = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
    }

    @BeforeEach
    void open() {
        store = new SqliteMemoryStore(dir.resolve("memories.db"));
        index = new LuceneVectorIndex(dir.resolve("index"));
        cold = new FileColdStore(dir.resolve("cold"));
        indexer = new Indexer(store, index, embedder);
    }

    @AfterEach
    void close() throws Exception {
        index.close();
        store.close();
    }

    private Memory seed(String id, String content, double importance, int daysAgo, int accesses, MemoryState state) {
        Instant created = NOW.minus(Duration.ofDays(daysAgo));
        Memory m = new Memory(new Id(id), TEAM, null, Scope.TEAM, MemoryType.FACT, content, List.of(), importance, 0.9,
                null, created, null, accesses, null, List.of(), 1, state);
        store.insertAll(List.of(m));
        indexer.index(List.of(m));
        return m;
    }

    private DecayJob job(int pageSize) {
        return new DecayJob(store, cold, indexer, DecayPolicy.defaults(), Clock.fixed(NOW, ZoneOffset.UTC), pageSize);
    }

    private boolean searchable(String id, String text) {
        return index.search(new VectorIndex.Search(new VectorIndex.Filter(TEAM, ALICE.user(), null, Set.of(), Set.of()),
                embedder.embedQuery(text), embedder.modelId(), text, 10)).stream()
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
        assertThat(back.accessCount()).isEqualTo(store.get(TEAM, new Id("m-old")).orElseThrow().accessCount());
        assertThat(back.lastAccessedAt()).isEqualTo(NOW);
        assertThat(store.get(TEAM, new Id("m-old")).orElseThrow().content()).isEqualTo("The 2019 offsite was in Porto");
        assertThat(searchable("m-old", "Where was the 2019 offsite?")).isTrue();
        assertThat(cold.get(TEAM, new Id("m-old"))).isEmpty();
        assertThatThrownBy(() -> restore.restore(ALICE, TEAM, new Id("m-old")))
                .isInstanceOf(InvalidInput.class).hasMessageContaining("not archived");
        // restored = used now: the next run keeps it
        assertThat(job(100).run(TEAM, null, () -> false).archived()).isZero();
    }

    @Test
    void anArchivedMemoryPastExpiry_shouldBeDeleted_withItsColdCopy() throws Exception {
        Memory m = seed("m-gone", "An old archived note", 0.1, 900, 0, MemoryState.ARCHIVED);
        cold.put(m);
        // archived 400 days ago
        java.nio.file.Files.setLastModifiedTime(dir.resolve("cold").resolve("acme").resolve("m-gone.gz"),
                java.nio.file.attribute.FileTime.from(NOW.minus(Duration.ofDays(400))));
        Memory recent = seed("m-recent", "A note archived last week", 0.1, 900, 0, MemoryState.ARCHIVED);
        cold.put(recent);
        java.nio.file.Files.setLastModifiedTime(dir.resolve("cold").resolve("acme").resolve("m-recent.gz"),
                java.nio.file.attribute.FileTime.from(NOW.minus(Duration.ofDays(7))));
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
