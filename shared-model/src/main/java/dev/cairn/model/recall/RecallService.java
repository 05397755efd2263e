package dev.cairn.model.recall;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretGate;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * Recall: embed the query → kNN + BM25 candidates inside the caller's namespace → hydrate from the record store
 * (the truth: deleted or changed records are never answered from a stale index) → rerank ({@link Scorer}: the dense
 * similarity fused with the per-query normalised BM25 score, then freshness and confidence) → top-k.
 */
public final class RecallService {

    private static final System.Logger LOG = System.getLogger(RecallService.class.getName());

    private final MemoryStore store;
    private final VectorIndex index;
    private final Embedder embedder;
    private final Indexer indexer;
    private final Clock clock;
    private final RecallSettings settings;
    private final Executor accessRecorder;
    private final SecretGate secrets;
    private final Executor embedding;

    public RecallService(
            MemoryStore store,
            VectorIndex index,
            Embedder embedder,
            Indexer indexer,
            Clock clock,
            RecallSettings settings,
            Executor accessRecorder,
            SecretGate secrets) {
        this(store, index, embedder, indexer, clock, settings, accessRecorder, secrets, Runnable::run);
    }

    /**
     * {@code embedding} embeds each query while the calling thread starts the index's search (its BM25 part needs no
     * vector); a direct executor ({@code Runnable::run}) runs the two one after the other.
     */
    public RecallService(
            MemoryStore store,
            VectorIndex index,
            Embedder embedder,
            Indexer indexer,
            Clock clock,
            RecallSettings settings,
            Executor accessRecorder,
            SecretGate secrets,
            Executor embedding) {
        this.embedding = embedding;
        this.secrets = secrets;
        this.store = store;
        this.index = index;
        this.embedder = embedder;
        this.indexer = indexer;
        this.clock = clock;
        this.settings = settings;
        this.accessRecorder = accessRecorder;
    }

    /** Clocks of callers and server may differ by this much before an as_of counts as the future. */
    static final java.time.Duration AS_OF_SKEW = java.time.Duration.ofMinutes(5);

    public RecallSettings settings() {
        return settings;
    }

    public RecallResult recall(Caller caller, Id team, RecallDraft draft) {
        long started = System.nanoTime();
        caller.requireMember(team);
        RecallQuery q = draft.validate(settings);
        indexer.requireCompatibleModel();
        Instant now = clock.instant();
        if (q.asOf() != null && q.asOf().isAfter(now.plus(AS_OF_SKEW))) {
            // what will hold later is not known: answering with today's facts would pass them off as the future's
            throw new InvalidInput(
                    "as_of",
                    "is in the future (" + q.asOf() + ", now " + now.truncatedTo(java.time.temporal.ChronoUnit.SECONDS)
                            + "); recall answers what held at a past time, or now without as_of");
        }
        Instant asOf = q.asOf() != null ? q.asOf() : now;

        long t0 = System.nanoTime();
        VectorIndex.Filter filter = new VectorIndex.Filter(team, caller.user(), q.scope(), q.types(), q.tags());
        CompletableFuture<Embedded> query = embedAsync(q.query());
        List<VectorIndex.Candidate> candidates;
        Embedded vector;
        try (VectorIndex.Started search = index.start(filter, embedder.modelId(), q.query(), q.candidates())) {
            vector = join(query);
            candidates = search.finish(vector.vector());
        }
        long searched = System.nanoTime();
        // the search's own time is what it added to the embedding's: the part run meanwhile is hidden behind it
        long embedded = t0 + Math.min(vector.nanos(), searched - t0);

        Map<Id, VectorIndex.Candidate> byId = new HashMap<>();
        for (VectorIndex.Candidate c : candidates) {
            byId.merge(
                    c.id(),
                    c,
                    (a, b) -> new VectorIndex.Candidate(
                            a.id(), Math.max(a.similarity(), b.similarity()), Math.max(a.lexical(), b.lexical())));
        }
        Scorer scorer = new Scorer(q.weights());
        // normalised over the whole pool the index returned, before the record checks: the same pool on every backend
        Map<Id, Double> lexical = Scorer.normalisedLexical(byId.values());
        List<RecallResult.Hit> hits = new ArrayList<>();
        List<Memory> records = store.getAll(team, byId.keySet());
        long hydrated = System.nanoTime();
        for (Memory m : records) {
            if (!admits(q, caller, m, asOf)) {
                continue;
            }
            VectorIndex.Candidate c = byId.get(m.id());
            hits.add(new RecallResult.Hit(
                    m, scorer.score(c.similarity(), lexical.get(m.id()), m.effectiveTime(), m.confidence(), asOf)));
        }
        hits.sort(Comparator.comparing(RecallResult.Hit::ranked, RecallResult.Ranked.BEST_FIRST));
        List<RecallResult.Hit> top = new ArrayList<>(Math.min(q.topK(), hits.size()));
        for (RecallResult.Hit h : hits.subList(0, Math.min(q.topK(), hits.size()))) {
            // the read path redacts whatever today's rules flag, also in memories stored before the rule existed
            top.add(new RecallResult.Hit(
                    h.memory().withContent(secrets.forRead(h.memory().content())), h.score()));
        }
        recordAccessLater(team, top, now);
        long ranked = System.nanoTime();
        return new RecallResult(
                top,
                embedder.modelId(),
                (ranked - started) / 1_000_000,
                new RecallResult.Timing(embedded - t0, searched - embedded, hydrated - searched, ranked - hydrated));
    }

    private record Embedded(float[] vector, long nanos) {}

    private CompletableFuture<Embedded> embedAsync(String text) {
        Supplier<Embedded> embed = () -> {
            long t = System.nanoTime();
            float[] v = embedder.embedQuery(text);
            return new Embedded(v, System.nanoTime() - t);
        };
        try {
            return CompletableFuture.supplyAsync(embed, embedding);
        } catch (RejectedExecutionException e) {
            return CompletableFuture.completedFuture(embed.get()); // shutting down: embed here
        }
    }

    /** The embedding's own exception, unwrapped: a model outage stays the {@code StoreUnavailable} it was. */
    private static Embedded join(CompletableFuture<Embedded> f) {
        try {
            return f.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            if (e.getCause() instanceof Error err) {
                throw err;
            }
            throw e;
        }
    }

    /** Re-checks against the record itself: the index may lag behind a patch or a delete. */
    private static boolean admits(RecallQuery q, Caller caller, Memory m, Instant asOf) {
        if (m.state() != MemoryState.ACTIVE || !m.visibleTo(caller.user())) {
            return false;
        }
        if (q.scope() != null && m.scope() != q.scope()) {
            return false;
        }
        if (!q.types().isEmpty() && !q.types().contains(m.type())) {
            return false;
        }
        if (!q.tags().isEmpty() && m.tags().stream().noneMatch(q.tags()::contains)) {
            return false;
        }
        // now: only current facts; as_of: the facts that held then (happened by then, not yet superseded)
        return q.asOf() == null ? m.isCurrent() : m.validAt(asOf);
    }

    /** Access statistics feed decay; they must never slow down or fail a recall. */
    private void recordAccessLater(Id team, List<RecallResult.Hit> hits, Instant at) {
        if (hits.isEmpty()) {
            return;
        }
        List<Id> ids = hits.stream().map(h -> h.memory().id()).toList();
        try {
            accessRecorder.execute(() -> {
                try {
                    store.recordAccess(team, ids, at);
                } catch (RuntimeException e) {
                    LOG.log(Level.WARNING, "could not record access of " + ids.size() + " memories: " + e);
                }
            });
        } catch (RejectedExecutionException e) {
            LOG.log(Level.WARNING, "access recording is shutting down; skipped " + ids.size() + " memories");
        }
    }
}
