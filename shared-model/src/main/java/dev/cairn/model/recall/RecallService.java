package dev.cairn.model.recall;

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
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

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

    public RecallService(
            MemoryStore store,
            VectorIndex index,
            Embedder embedder,
            Indexer indexer,
            Clock clock,
            RecallSettings settings,
            Executor accessRecorder,
            SecretGate secrets) {
        this.secrets = secrets;
        this.store = store;
        this.index = index;
        this.embedder = embedder;
        this.indexer = indexer;
        this.clock = clock;
        this.settings = settings;
        this.accessRecorder = accessRecorder;
    }

    public RecallSettings settings() {
        return settings;
    }

    public RecallResult recall(Caller caller, Id team, RecallDraft draft) {
        long started = System.nanoTime();
        caller.requireMember(team);
        RecallQuery q = draft.validate(settings);
        indexer.requireCompatibleModel();
        Instant now = clock.instant();
        Instant asOf = q.asOf() != null ? q.asOf() : now;

        long t0 = System.nanoTime();
        float[] vector = embedder.embedQuery(q.query());
        long embedded = System.nanoTime();
        VectorIndex.Filter filter = new VectorIndex.Filter(team, caller.user(), q.scope(), q.types(), q.tags());
        List<VectorIndex.Candidate> candidates =
                index.search(new VectorIndex.Search(filter, vector, embedder.modelId(), q.query(), q.candidates()));
        long searched = System.nanoTime();

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
