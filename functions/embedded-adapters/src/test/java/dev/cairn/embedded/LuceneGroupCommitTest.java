package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.memory.PatchDraft;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex.Filter;
import dev.cairn.model.port.VectorIndex.Search;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The group commit of the Lucene index: a write is searchable at once, durable only after the background commit,
 * and marked indexed in the record store only then, so neither a crash before the commit nor writers racing the
 * committer lose an acknowledged memory.
 */
class LuceneGroupCommitTest {

    private static final Id TEAM = new Id("acme");
    private static final SecretGate GATE = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final HashingEmbedder EMBEDDER = new HashingEmbedder();

    @TempDir
    Path dir;

    @Test
    void acknowledgedWrites_shouldBeRecallableAfterCatchUp_whenTheProcessCrashedBeforeTheirIndexCommit()
            throws Exception {
        List<Id> written = new ArrayList<>();
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"))) {
            // GIVEN an index whose committer never runs, and memories acknowledged through the write path
            LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("index"), d -> d, null);
            MemoryService memories = service(store, new Indexer(store, index, EMBEDDER));
            for (int i = 0; i < 5; i++) {
                written.add(memories.create(ALICE, TEAM, draft("release note number " + i))
                        .memory()
                        .id());
            }
            assertThat(index.searchableVersions())
                    .as("searchable before any commit")
                    .hasSize(5);
            assertThat(store.pendingIndex(10))
                    .as("not marked indexed before their commit")
                    .hasSize(5);

            // WHEN the process dies before the commit, and a new one opens the same folders and catches up
            index.crashWithoutCommit();
            try (LuceneVectorIndex reopened = new LuceneVectorIndex(dir.resolve("index"))) {
                assertThat(reopened.searchableVersions())
                        .as("the uncommitted work is gone")
                        .isEmpty();
                Indexer indexer = new Indexer(store, reopened, EMBEDDER);
                assertThat(indexer.converge(100)).isEqualTo(5);

                // THEN every acknowledged memory is found again, and nothing is left pending
                assertThat(reopened.searchableVersions().keySet())
                        .containsExactlyInAnyOrderElementsOf(written.stream()
                                .map(id -> TEAM.value() + "/" + id.value())
                                .toList());
                assertThat(reopened.search(search("release note number 3")))
                        .extracting(c -> c.id())
                        .contains(written.get(3));
                assertThat(store.pendingIndex(10)).isEmpty();
            }
        }
    }

    @Test
    void aWrite_shouldBeMarkedIndexed_onlyOnceTheGroupCommitCoveredIt() throws Exception {
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"));
                LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("index"), d -> d, null)) {
            Indexer indexer = new Indexer(store, index, EMBEDDER);
            Memory m = service(store, indexer)
                    .create(ALICE, TEAM, draft("the staging database runs PostgreSQL 16"))
                    .memory();
            // in flight until durable: catch-up does not embed it a second time meanwhile
            assertThat(indexer.catchUp(10)).isZero();
            assertThat(store.pendingIndex(10)).hasSize(1);

            index.commitPending();

            assertThat(store.pendingIndex(10)).isEmpty();
            assertThat(index.searchableVersions()).containsEntry(TEAM.value() + "/" + m.id().value(), 1L);
        }
    }

    /**
     * Writers create, patch and delete a shared pool of memories (so deletions race upserts of the same memory) while
     * the committer commits every few milliseconds and a reader recalls; afterwards the index must hold exactly the
     * store's live versions, in memory and after close, reopen and catch-up. Fixed seed, bounded time.
     */
    @Test
    void concurrentWritersDeletesAndCommits_shouldLoseNoAcknowledgedWrite_andKeepTheVersionsConsistent()
            throws Exception {
        int writers = 4;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(6);
        List<Id> pool = Collections.synchronizedList(new ArrayList<>());
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"))) {
            try (LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("index"), d -> d, Duration.ofMillis(3))) {
                Indexer indexer = new Indexer(store, index, EMBEDDER);
                MemoryService memories = service(store, indexer);
                for (int i = 0; i < 12; i++) {
                    pool.add(memories.create(ALICE, TEAM, draft("seed memory " + i))
                            .memory()
                            .id());
                }
                ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
                CountDownLatch done = new CountDownLatch(writers + 1);
                for (int w = 0; w < writers; w++) {
                    Random random = new Random(42 + w);
                    new Thread(() -> {
                                try {
                                    int ops = 0;
                                    while (System.nanoTime() < deadline && ops++ < 400) {
                                        writeOnce(memories, store, pool, random);
                                    }
                                } catch (Throwable t) {
                                    errors.add(t);
                                } finally {
                                    done.countDown();
                                }
                            })
                            .start();
                }
                new Thread(() -> {
                            try {
                                while (System.nanoTime() < deadline && done.getCount() > 1) {
                                    index.search(search("memory"));
                                }
                            } catch (Throwable t) {
                                errors.add(t);
                            } finally {
                                done.countDown();
                            }
                        })
                        .start();
                assertThat(done.await(60, TimeUnit.SECONDS))
                        .as("workers finished")
                        .isTrue();
                assertThat(errors).isEmpty();

                index.commitPending();
                Map<String, Long> live = liveVersions(store, pool);
                assertThat(index.searchableVersions()).isEqualTo(live);
                // a key the index holds is applied at its version; a removed one may stay applied (as its tombstone)
                Map<String, Long> applied = index.appliedVersions();
                live.forEach((k, v) -> assertThat(applied).containsEntry(k, v));
            }
            // after close, not before: a commit the committer thread ran marks its memories on that thread, and
            // close waits for it
            assertThat(store.pendingIndex(1000))
                    .as("every durable write marked")
                    .isEmpty();
            try (LuceneVectorIndex reopened = new LuceneVectorIndex(dir.resolve("index"))) {
                new Indexer(store, reopened, EMBEDDER).converge(100);
                Map<String, Long> live = liveVersions(store, pool);
                assertThat(reopened.searchableVersions()).isEqualTo(live);
                assertThat(reopened.appliedVersions()).isEqualTo(live);
            }
        }
    }

    /** One random write on a memory of the shared pool, as a client would send it; refusals of a race are fine. */
    private static void writeOnce(MemoryService memories, SqliteMemoryStore store, List<Id> pool, Random random) {
        int op = random.nextInt(10);
        if (op < 2) {
            pool.add(memories.create(ALICE, TEAM, draft("new memory " + random.nextInt(1000)))
                    .memory()
                    .id());
            return;
        }
        Id id = pool.get(random.nextInt(pool.size()));
        Optional<Memory> current = store.get(TEAM, id);
        if (current.isEmpty()) {
            return;
        }
        try {
            if (op < 4) {
                memories.delete(ALICE, TEAM, id, current.get().version());
            } else {
                memories.patch(
                        ALICE,
                        TEAM,
                        id,
                        current.get().version(),
                        new PatchDraft(
                                "changed memory " + random.nextInt(1000), null, null, null, null, null, null, null));
            }
        } catch (VersionConflict | NotFound raced) {
            // another writer changed or deleted it first: nothing written, as for a client
        }
    }

    /** Every memory the store holds live, by index key, at its version. */
    private static Map<String, Long> liveVersions(SqliteMemoryStore store, List<Id> ids) {
        Map<String, Long> out = new HashMap<>();
        for (Id id : List.copyOf(ids)) {
            store.get(TEAM, id).ifPresent(m -> out.put(TEAM.value() + "/" + id.value(), m.version()));
        }
        return out;
    }

    private static MemoryService service(SqliteMemoryStore store, Indexer indexer) {
        return new MemoryService(store, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, GATE);
    }

    private static Search search(String text) {
        return new Search(
                new Filter(TEAM, ALICE.user(), Scope.TEAM, null, null),
                EMBEDDER.embedQuery(text),
                HashingEmbedder.MODEL,
                text,
                10);
    }

    private static MemoryDraft draft(String content) {
        return new MemoryDraft(content, "fact", "team", null, null, null, null, null, null);
    }
}
