package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex.Durable;
import dev.cairn.model.port.VectorIndex.Entry;
import dev.cairn.model.port.VectorIndex.Filter;
import dev.cairn.model.port.VectorIndex.Key;
import dev.cairn.model.port.VectorIndex.Search;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upsert(entries, then)}: searchable when it returns, durable with a commit shared by every writer that came
 * meanwhile, and never reported durable when that commit failed.
 */
class LuceneGroupCommitTest {

    private static final String MODEL = "test-model";
    private static final Filter ACME = new Filter(new Id("acme"), new Id("alice"), null, Set.of(), Set.of());

    @TempDir
    Path dir;

    /** Counts commits (a commit syncs its files) and makes each one slow, as a real disk's fsyncs are. */
    static final class SlowSyncDirectory extends FilterDirectory {
        final AtomicInteger syncs = new AtomicInteger();
        final AtomicBoolean failNextSync = new AtomicBoolean();

        SlowSyncDirectory(Directory in) {
            super(in);
        }

        @Override
        public void sync(Collection<String> names) throws IOException {
            if (failNextSync.getAndSet(false)) {
                throw new IOException("Input/output error");
            }
            syncs.incrementAndGet();
            try {
                Thread.sleep(40);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            super.sync(names);
        }
    }

    /** What one writer learned about its entries. */
    static final class Outcome implements Durable {
        final CountDownLatch told = new CountDownLatch(1);
        volatile Boolean committed;

        @Override
        public void committed() {
            committed = true;
            told.countDown();
        }

        @Override
        public void lost() {
            committed = false;
            told.countDown();
        }

        boolean await() throws InterruptedException {
            assertThat(told.await(30, TimeUnit.SECONDS))
                    .as("the writer was told")
                    .isTrue();
            return committed;
        }
    }

    private static Entry entry(String id, float[] v) {
        return new Entry(
                new Key(new Id("acme"), new Id(id), 1),
                Scope.TEAM,
                null,
                MemoryType.FACT,
                List.of(),
                "memory " + id,
                Instant.parse("2026-01-01T00:00:00Z"),
                v,
                MODEL);
    }

    private static float[] direction(int i) {
        double a = i * 0.01;
        return new float[] {(float) Math.cos(a), (float) Math.sin(a), 0.1f};
    }

    private static boolean finds(LuceneVectorIndex index, String id, float[] v) {
        return index.search(new Search(ACME, v, MODEL, null, 5)).stream()
                .anyMatch(c -> c.id().value().equals(id));
    }

    @Test
    void concurrentWriters_shouldEachBeSearchableOnReturn_andShareCommits_andSurviveAReopen() throws Exception {
        // GIVEN an index whose commits take 40 ms per sync, and 4 writers writing 10 memories each
        SlowSyncDirectory[] slow = new SlowSyncDirectory[1];
        Set<String> searchableOnReturn = ConcurrentHashMap.newKeySet();
        List<Outcome> outcomes = new ArrayList<>();
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir, d -> slow[0] = new SlowSyncDirectory(d))) {
            ExecutorService writers = Executors.newFixedThreadPool(4);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < 4; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    for (int i = 0; i < 10; i++) {
                        int n = writer * 10 + i;
                        Outcome o = new Outcome();
                        synchronized (outcomes) {
                            outcomes.add(o);
                        }
                        index.upsert(List.of(entry("m" + n, direction(n))), o);
                        // WHEN a write returns THEN it is searchable, committed or not
                        if (finds(index, "m" + n, direction(n))) {
                            searchableOnReturn.add("m" + n);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            writers.shutdown();
            for (Outcome o : outcomes) {
                assertThat(o.await()).isTrue();
            }
        }

        // THEN every write was searchable on return and was told durable; far fewer commits than writes ran
        assertThat(searchableOnReturn).hasSize(40);
        int commits = slow[0].syncs.get();
        assertThat(commits).as("commits for 40 writes").isLessThanOrEqualTo(30);
        // AND a reopened index holds every write the writers were told is durable
        try (LuceneVectorIndex reopened = new LuceneVectorIndex(dir)) {
            for (int n = 0; n < 40; n++) {
                assertThat(finds(reopened, "m" + n, direction(n))).as("m" + n).isTrue();
            }
        }
    }

    @Test
    void aFailedGroupCommit_shouldTellItsWritersTheyAreLost_neverDurable_andTheIndexShouldServeOn() throws Exception {
        SlowSyncDirectory[] slow = new SlowSyncDirectory[1];
        try (LuceneVectorIndex index = new LuceneVectorIndex(dir, d -> slow[0] = new SlowSyncDirectory(d))) {
            index.upsert(List.of(entry("kept", direction(1))));

            // GIVEN the disk fails the next commit's sync
            slow[0].failNextSync.set(true);
            Outcome failed = new Outcome();
            index.upsert(List.of(entry("failed", direction(2))), failed);

            // THEN its writer hears it was lost (its record stays pending, so catch-up writes it again)
            assertThat(failed.await()).isFalse();

            // AND the index serves on: the committed memory is there, and a new write is durable again
            assertThat(finds(index, "kept", direction(1))).isTrue();
            Outcome retried = new Outcome();
            index.upsert(List.of(entry("failed", direction(2))), retried);
            assertThat(retried.await()).isTrue();
            assertThat(finds(index, "failed", direction(2))).isTrue();
        }
    }
}
