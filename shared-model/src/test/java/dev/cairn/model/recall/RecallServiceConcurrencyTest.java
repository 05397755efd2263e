package dev.cairn.model.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretPolicy;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.testkit.HashingEmbedder;
import dev.cairn.model.testkit.InMemoryMemoryStore;
import dev.cairn.model.testkit.InMemoryVectorIndex;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The query is embedded on another thread while the index starts its search; the answer must not change. */
class RecallServiceConcurrencyTest {

    private static final Id TEAM = new Id("acme");
    private static final Caller ALICE = new Caller(new Id("alice"), Set.of(TEAM));
    private static final RecallDraft QUERY =
            new RecallDraft("which database did the team pick", 5, null, null, null, null, null, null, null);

    private final Clock clock = Clock.fixed(java.time.Instant.parse("2026-12-01T00:00:00Z"), java.time.ZoneOffset.UTC);
    private final InMemoryMemoryStore store = new InMemoryMemoryStore();
    private final SecretGate gate = SecretGate.uniform(SecretScanner.bundled(), SecretPolicy.REDACT);
    private final CountingIndex index = new CountingIndex();
    private final FailingEmbedder embedder = new FailingEmbedder();
    private final Indexer indexer = new Indexer(store, index, embedder);
    private final ExecutorService pool = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        pool.shutdownNow();
    }

    private RecallService recall(java.util.concurrent.Executor embedding) {
        return new RecallService(
                store, index, embedder, indexer, clock, RecallSettings.DEFAULTS, Runnable::run, gate, embedding);
    }

    private void remember(String... texts) {
        MemoryService memories = new MemoryService(store, indexer, clock, MemoryLimits.DEFAULTS, gate);
        for (String t : texts) {
            memories.create(ALICE, TEAM, new MemoryDraft(t, "decision", "team", null, null, null, null, null, null));
        }
    }

    @Test
    void aQueryEmbeddedOnAnotherThread_recallsWhatASequentialRecallRecalls_andReleasesTheSearch() {
        remember(
                "The team picked PostgreSQL as the database for billing",
                "We deploy on Fridays only after the review",
                "Alice prefers Kotlin for new services",
                "The database migration runs every night at two");

        RecallResult sequential = recall(Runnable::run).recall(ALICE, TEAM, QUERY);
        RecallResult overlapped = recall(pool).recall(ALICE, TEAM, QUERY);

        assertThat(overlapped.hits()).isNotEmpty();
        assertThat(overlapped.hits().stream().map(h -> h.memory().id()).toList())
                .isEqualTo(sequential.hits().stream().map(h -> h.memory().id()).toList());
        assertThat(overlapped.hits().stream().map(h -> h.score().total()).toList())
                .isEqualTo(
                        sequential.hits().stream().map(h -> h.score().total()).toList());
        assertThat(index.closed.get()).isEqualTo(index.started.get()).isEqualTo(2);
        // the query was embedded off the request thread, and its step is still reported
        assertThat(embedder.lastQueryThread.get())
                .isNotEqualTo(Thread.currentThread().getName());
        assertThat(overlapped.timing().embedNanos()).isPositive();
    }

    @Test
    void aFailingQueryEmbedding_surfacesItsOwnError_andStillReleasesTheStartedSearch() {
        remember("The team picked PostgreSQL as the database for billing");
        embedder.queriesFail = true;

        assertThatThrownBy(() -> recall(pool).recall(ALICE, TEAM, QUERY))
                .isInstanceOf(StoreUnavailable.class)
                .hasMessageContaining("embedding model");
        assertThat(index.started.get()).isEqualTo(1);
        assertThat(index.closed.get()).isEqualTo(1);
    }

    /** The in-memory index, counting the searches started and closed. */
    private static final class CountingIndex implements VectorIndex {
        final InMemoryVectorIndex inner = new InMemoryVectorIndex();
        final AtomicInteger started = new AtomicInteger();
        final AtomicInteger closed = new AtomicInteger();

        @Override
        public Optional<String> modelId() {
            return inner.modelId();
        }

        @Override
        public void upsert(List<Entry> entries) {
            inner.upsert(entries);
        }

        @Override
        public void delete(List<Key> keys) {
            inner.delete(keys);
        }

        @Override
        public List<Candidate> search(Search search) {
            return inner.search(search);
        }

        @Override
        public Started start(Filter filter, String model, String text, int k) {
            started.incrementAndGet();
            Started begun = inner.start(filter, model, text, k);
            return new Started() {
                @Override
                public List<Candidate> finish(float[] vector) {
                    return begun.finish(vector);
                }

                @Override
                public void close() {
                    closed.incrementAndGet();
                    begun.close();
                }
            };
        }
    }

    /** The hashing embedder, remembering the thread of the last query; its queries fail when told to. */
    private static final class FailingEmbedder implements Embedder {
        final HashingEmbedder inner = new HashingEmbedder();
        final AtomicReference<String> lastQueryThread = new AtomicReference<>();
        volatile boolean queriesFail;

        @Override
        public String modelId() {
            return inner.modelId();
        }

        @Override
        public int dimensions() {
            return inner.dimensions();
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            return inner.embedDocuments(texts);
        }

        @Override
        public float[] embedQuery(String query) {
            lastQueryThread.set(Thread.currentThread().getName());
            if (queriesFail) {
                throw new StoreUnavailable("the embedding model", Duration.ofSeconds(1), null);
            }
            return inner.embedQuery(query);
        }
    }

    @Test
    void anAsOfInTheFuture_isRefused_whileOneWithinClockSkewIsAnswered() {
        remember("The team picked PostgreSQL as the database for billing");
        RecallDraft nextYear = new RecallDraft(
                "which database did the team pick", 5, null, null, null, null, null, null, "2027-12-01T00:00:00Z");
        assertThatThrownBy(() -> recall(Runnable::run).recall(ALICE, TEAM, nextYear))
                .isInstanceOf(dev.cairn.model.error.InvalidInput.class)
                .hasMessageContaining("as_of is in the future");
        RecallDraft skewed = new RecallDraft(
                "which database did the team pick", 5, null, null, null, null, null, null, "2026-12-01T00:01:00Z");
        assertThat(recall(Runnable::run).recall(ALICE, TEAM, skewed).hits()).isNotEmpty();
    }
}
