package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.recall.RecallDraft;
import dev.cairn.model.recall.RecallResult;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.recall.RecallSettings;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FilterDirectory;
import org.apache.lucene.store.IOContext;
import org.apache.lucene.store.IndexOutput;
import org.apache.lucene.store.Lock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk under the index: writes fail while it is full, and once space returns recall finds everything again
 * without a restart (the index reopens its writer and the pending memories are indexed again from the record store).
 * The disk is made "full" by a directory that refuses every new file and every byte written, as ENOSPC would — no
 * root-only mount needed.
 */
class LuceneDiskFullTest {

    private static final Id TEAM = new Id("acme");
    private static final SecretGate GATE = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));

    @TempDir
    Path dir;

    /** A directory whose disk can be "filled": then no file can be created and nothing written. */
    static final class FillableDirectory extends FilterDirectory {
        final AtomicBoolean full = new AtomicBoolean();
        /**
         * As a tmpfs fills: files are still created and small writes buffered, and the bytes fail only when an output
         * is flushed on close, so a batch fails at its commit, after its documents were added.
         */
        final AtomicBoolean flushRefused = new AtomicBoolean();

        FillableDirectory(Directory in) {
            super(in);
        }

        private void check() throws IOException {
            if (full.get()) {
                throw new IOException("No space left on device");
            }
        }

        @Override
        public IndexOutput createOutput(String name, IOContext context) throws IOException {
            check();
            return new IndexOutput("fillable(" + name + ")", name) {
                final IndexOutput out = FillableDirectory.super.createOutput(name, context);

                @Override
                public void close() throws IOException {
                    out.close();
                    if (flushRefused.get()) {
                        throw new IOException("No space left on device");
                    }
                }

                @Override
                public long getFilePointer() {
                    return out.getFilePointer();
                }

                @Override
                public long getChecksum() throws IOException {
                    return out.getChecksum();
                }

                @Override
                public void writeByte(byte b) throws IOException {
                    check();
                    out.writeByte(b);
                }

                @Override
                public void writeBytes(byte[] b, int offset, int length) throws IOException {
                    check();
                    out.writeBytes(b, offset, length);
                }
            };
        }

        @Override
        public IndexOutput createTempOutput(String prefix, String suffix, IOContext context) throws IOException {
            check();
            return super.createTempOutput(prefix, suffix, context);
        }

        @Override
        public void sync(java.util.Collection<String> names) throws IOException {
            check();
            super.sync(names);
        }

        @Override
        public void rename(String source, String dest) throws IOException {
            check();
            super.rename(source, dest);
        }

        /** With {@link #lockRefused} set, a new writer cannot start either (its lock file cannot be created). */
        final AtomicBoolean lockRefused = new AtomicBoolean();

        @Override
        public Lock obtainLock(String name) throws IOException {
            if (lockRefused.get()) {
                throw new IOException("No space left on device");
            }
            return super.obtainLock(name);
        }
    }

    @Test
    void recall_shouldRecoverWithoutARestart_afterTheDiskWasFullAndSpaceReturned() {
        FillableDirectory[] disk = new FillableDirectory[1];
        Clock clock = Clock.systemUTC();
        SecretGate gate = GATE;
        HashingEmbedder embedder = new HashingEmbedder();
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"));
                LuceneVectorIndex index = fillableIndex(disk)) {
            Indexer indexer = new Indexer(store, index, embedder);
            MemoryService memories = new MemoryService(store, indexer, clock, MemoryLimits.DEFAULTS, gate);
            RecallService recall = new RecallService(
                    store, index, embedder, indexer, clock, RecallSettings.DEFAULTS, Runnable::run, gate);
            memories.create(ALICE, TEAM, draft("The staging database runs PostgreSQL 16"));

            // GIVEN a full disk: the record store (elsewhere) takes the write, the index cannot
            disk[0].full.set(true);
            memories.create(ALICE, TEAM, draft("The Orion release train leaves every second Tuesday"));
            for (int i = 0; i < 3; i++) { // the catch-up poller keeps trying while the disk is full
                Throwable t = catchThrowable(() -> indexer.converge(100));
                assertThat(t).as("an outage, never a closed index").isInstanceOfAny(StoreUnavailable.class);
            }
            Throwable duringOutage = catchThrowable(() -> recall(recall, "When does the Orion release train leave?"));
            assertThat(duringOutage == null || duringOutage instanceof StoreUnavailable)
                    .as("recall while full answers or reports an outage: %s", duringOutage)
                    .isTrue();

            // WHEN space returns (no restart: the same index object, the same process)
            disk[0].full.set(false);
            indexer.converge(100);

            // THEN recall finds the memory written while the disk was full, and the index says it is usable
            assertThat(recall(recall, "When does the Orion release train leave?")
                            .hits())
                    .extracting(h -> h.memory().content())
                    .first()
                    .isEqualTo("The Orion release train leaves every second Tuesday");
            assertThat(index.unavailable()).isEmpty();
            assertThat(store.pendingIndex(10)).isEmpty();
        }
    }

    @Test
    void readiness_shouldSayWhyWhileTheIndexCannotReopen_andRecoverOnItsOwnOnceSpaceReturns() {
        FillableDirectory[] disk = new FillableDirectory[1];
        HashingEmbedder embedder = new HashingEmbedder();
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"));
                LuceneVectorIndex index = fillableIndex(disk)) {
            Indexer indexer = new Indexer(store, index, embedder);
            MemoryService memories = new MemoryService(store, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, GATE);
            memories.create(ALICE, TEAM, draft("The staging database runs PostgreSQL 16"));
            assertThat(index.unavailable()).isEmpty();

            // GIVEN a disk so full that, after the failed write, not even the reopened writer can start
            disk[0].full.set(true);
            disk[0].lockRefused.set(true);
            // the store takes the write; the index write fails, and so does the writer's reopen
            memories.create(ALICE, TEAM, draft("The Orion release train leaves every second Tuesday"));
            Throwable catchUp = catchThrowable(() -> indexer.converge(100));
            assertThat(catchUp).isInstanceOf(StoreUnavailable.class);

            // THEN the index says it cannot be used, and why (readiness reports this text and goes DOWN)
            assertThat(index.unavailable())
                    .hasValueSatisfying(why ->
                            assertThat(why).contains("cannot be reopened").contains("No space left"));
            assertThat(catchThrowable(() -> recall(
                            new RecallService(
                                    store,
                                    index,
                                    embedder,
                                    indexer,
                                    Clock.systemUTC(),
                                    RecallSettings.DEFAULTS,
                                    Runnable::run,
                                    GATE),
                            "When does the Orion release train leave?")))
                    .as("recall reports the outage")
                    .isInstanceOf(StoreUnavailable.class);

            // WHEN space returns, with no write, recall or catch-up in between (a load balancer sends no traffic to
            // an instance that is not ready, so the readiness probe itself must find out)
            disk[0].lockRefused.set(false);
            disk[0].full.set(false);

            // THEN the next readiness probe finds the index usable again
            assertThat(index.unavailable()).isEmpty();
            indexer.converge(100);
            assertThat(store.pendingIndex(10)).isEmpty();
        }
    }

    @Test
    void aBatchWhoseCommitFailed_shouldBeIndexedWhenThePollerRetriesIt_onceSpaceReturns() {
        FillableDirectory[] disk = new FillableDirectory[1];
        HashingEmbedder embedder = new HashingEmbedder();
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"));
                LuceneVectorIndex index = fillableIndex(disk)) {
            Indexer indexer = new Indexer(store, index, embedder);
            MemoryService memories = new MemoryService(store, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, GATE);
            RecallService recall = new RecallService(
                    store, index, embedder, indexer, Clock.systemUTC(), RecallSettings.DEFAULTS, Runnable::run, GATE);
            memories.create(ALICE, TEAM, draft("The staging database runs PostgreSQL 16"));

            // GIVEN a disk that takes the documents but fails the commit's flush (as a full tmpfs does)
            disk[0].flushRefused.set(true);
            memories.create(ALICE, TEAM, draft("The Orion release train leaves every second Tuesday"));
            assertThat(catchThrowable(() -> indexer.converge(100))).isInstanceOf(StoreUnavailable.class);

            // WHEN space returns and the poller indexes what is pending
            disk[0].flushRefused.set(false);
            indexer.converge(100);

            // THEN the memory whose batch failed is in the index (not skipped as "already applied")
            assertThat(recall(recall, "When does the Orion release train leave?")
                            .hits())
                    .extracting(h -> h.memory().content())
                    .first()
                    .isEqualTo("The Orion release train leaves every second Tuesday");
        }
    }

    /** The index on a directory the test can fill: {@code disk[0]} is that directory once the index opened it. */
    private LuceneVectorIndex fillableIndex(FillableDirectory[] disk) {
        return new LuceneVectorIndex(dir.resolve("index"), d -> {
            disk[0] = new FillableDirectory(d);
            return disk[0];
        });
    }

    private static MemoryDraft draft(String content) {
        return new MemoryDraft(content, "fact", "team", null, null, null, null, null, null);
    }

    private static RecallResult recall(RecallService recall, String query) {
        return recall.recall(ALICE, TEAM, new RecallDraft(query, 3, null, null, null, null, null, null, null));
    }
}
