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
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));

    @TempDir
    Path dir;

    /** A directory whose disk can be "filled": then no file can be created and nothing written. */
    static final class FillableDirectory extends FilterDirectory {
        final AtomicBoolean full = new AtomicBoolean();

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
    }

    @Test
    void recall_shouldRecoverWithoutARestart_afterTheDiskWasFullAndSpaceReturned() {
        FillableDirectory[] disk = new FillableDirectory[1];
        Clock clock = Clock.systemUTC();
        SecretGate gate = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);
        HashingEmbedder embedder = new HashingEmbedder();
        try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("memories.db"));
                LuceneVectorIndex index = new LuceneVectorIndex(dir.resolve("index"), d -> {
                    disk[0] = new FillableDirectory(d);
                    return disk[0];
                })) {
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

    private static MemoryDraft draft(String content) {
        return new MemoryDraft(content, "fact", "team", null, null, null, null, null, null);
    }

    private static RecallResult recall(RecallService recall, String query) {
        return recall.recall(ALICE, TEAM, new RecallDraft(query, 3, null, null, null, null, null, null, null));
    }
}
