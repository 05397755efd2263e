package dev.cairn.model.index;

import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.MemoryStore.IndexWork;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.timing.Steps;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keeps the derived index converged with the record store.
 *
 * <p>The write path calls {@link #index} right after the store write so a memory is recallable as soon as it is
 * acknowledged; a background runner calls {@link #catchUp} so that whatever the write path could not finish (crash,
 * index outage) is finished later. A store record is marked indexed only after the index write is durable, so
 * there is no window in which work is forgotten.
 *
 * <p>A delete cascades to every copy derived from the record: its index documents, and its cold copy where this
 * process holds the cold tier ({@code cold} non-null). A process without it (an AWS API function, which does not
 * carry S3) leaves the cold copy to the one that converges the store's changes: the stream indexer calls {@link
 * #forget} when the tombstone's purge reaches it, and its own {@link #remove} deletes the copy too when it finds the
 * tombstone first.
 */
public final class Indexer {

    private final MemoryStore store;
    private final VectorIndex index;
    private final Embedder embedder;
    /** The cold tier, or null where this process does not hold it (see the class comment). */
    private final ColdStore cold;
    /** The share of a memory's context in its vector ({@link DocumentVector}). */
    private final double contextShare;

    private static final System.Logger LOG = System.getLogger(Indexer.class.getName());

    /**
     * Memories being indexed right now (by the write path until their index write is durable), with how many writes
     * of each are; catch-up leaves them alone instead of embedding them twice.
     */
    private final Map<String, Integer> inFlight = new ConcurrentHashMap<>();

    public Indexer(MemoryStore store, VectorIndex index, Embedder embedder) {
        this(store, index, embedder, null);
    }

    /** With {@code cold} non-null, a removed memory's cold copy is deleted with its index documents. */
    public Indexer(MemoryStore store, VectorIndex index, Embedder embedder, ColdStore cold) {
        this(store, index, embedder, cold, DocumentVector.DEFAULT_CONTEXT_SHARE);
    }

    /** {@code contextShare}: the share of a memory's context in its vector ({@link DocumentVector}; 0 leaves it out). */
    public Indexer(MemoryStore store, VectorIndex index, Embedder embedder, ColdStore cold, double contextShare) {
        DocumentVector.of(new float[1], null, contextShare); // refuses a share outside [0, 1) before anything runs
        this.contextShare = contextShare;
        this.store = store;
        this.index = index;
        this.embedder = embedder;
        this.cold = cold;
    }

    /** Refuses to mix vectors of two models in one index. */
    public void requireCompatibleModel() {
        index.modelId().ifPresent(held -> {
            if (!held.equals(embedder.modelId())) {
                throw new EmbeddingModelMismatch(held, embedder.modelId());
            }
        });
    }

    public String modelId() {
        return embedder.modelId();
    }

    /**
     * Indexes memories (active ones upserted, archived ones removed): returns once they are searchable, and marks them
     * indexed in the store once the index reports them durable (an index that commits in groups reports later; until
     * then they stay in flight, so catch-up does not embed them again). A failed durable write marks nothing: the
     * memories stay pending in the store and catch-up indexes them again.
     */
    public void index(List<Memory> memories) {
        indexWith(memories, null, false);
    }

    /**
     * As {@link #index(List)} for one memory whose content the caller has just embedded with this indexer's model
     * (consolidation compares a fact's vector before writing it): the vector is not computed twice.
     */
    public void index(Memory memory, float[] documentVector) {
        indexWith(List.of(memory), List.of(documentVector), false);
    }

    /**
     * As {@link #index(List)}, but returns only once the memories are durable in the index and marked indexed, and
     * throws what the durable write failed with: catch-up reports an index outage to its caller this way.
     */
    private void indexDurably(List<Memory> memories) {
        indexWith(memories, null, true);
    }

    private void indexWith(List<Memory> memories, List<float[]> knownVectors, boolean awaitDurable) {
        if (memories.isEmpty()) {
            return;
        }
        List<String> claimed =
                memories.stream().map(m -> inFlightKey(m.team(), m.id())).toList();
        claimed.forEach(k -> inFlight.merge(k, 1, Integer::sum));
        CompletableFuture<Void> marked;
        try {
            List<VectorIndex.Key> keys = memories.stream()
                    .map(m -> new VectorIndex.Key(m.team(), m.id(), m.version()))
                    .toList();
            // one store write for the whole batch, and only once the index holds it durably
            marked = writeClaimed(memories, knownVectors).thenRun(() -> store.markIndexed(keys));
        } catch (RuntimeException e) {
            release(claimed);
            throw e;
        }
        marked.whenComplete((done, failure) -> {
            release(claimed);
            if (failure != null && !awaitDurable) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "indexing of " + memories.size() + " memories not durable, left to catch-up: " + failure);
            }
        });
        if (awaitDurable) {
            VectorIndex.await(marked);
        }
    }

    private void release(List<String> claimed) {
        // a count, not a set: two writes of the same memory may be in flight at once, and the first to become
        // durable must not release the second
        claimed.forEach(k -> inFlight.computeIfPresent(k, (key, n) -> n == 1 ? null : n - 1));
    }

    private static String inFlightKey(Id team, Id id) {
        return team.value() + "/" + id.value();
    }

    /** Whether this memory's vector is a mix with its context's ({@link #withContexts}). */
    private boolean mixesContext(Memory m) {
        return contextShare > 0 && m.context() != null && !m.context().isBlank();
    }

    /**
     * Each memory's vector with its context mixed in ({@link DocumentVector}). A context that is another memory's
     * content in the same batch (a conversation written turn by turn, each with the next turn as its context) reuses
     * that vector; the other contexts are embedded in one call.
     */
    private List<float[]> withContexts(List<Memory> memories, List<float[]> contentVectors) {
        if (contextShare == 0) {
            return contentVectors;
        }
        Map<String, float[]> known = new HashMap<>();
        for (int i = 0; i < memories.size(); i++) {
            known.putIfAbsent(memories.get(i).content(), contentVectors.get(i));
        }
        List<String> missing = new ArrayList<>();
        for (Memory m : memories) {
            if (mixesContext(m) && !known.containsKey(m.context())) {
                missing.add(m.context());
            }
        }
        if (!missing.isEmpty()) {
            List<String> distinct = List.copyOf(new LinkedHashSet<>(missing));
            List<float[]> embedded = embedder.embedDocuments(distinct);
            for (int k = 0; k < distinct.size(); k++) {
                known.put(distinct.get(k), embedded.get(k));
            }
        }
        List<float[]> mixed = new ArrayList<>(contentVectors);
        for (int i = 0; i < memories.size(); i++) {
            Memory m = memories.get(i);
            if (mixesContext(m)) {
                mixed.set(i, DocumentVector.of(contentVectors.get(i), known.get(m.context()), contextShare));
            }
        }
        return mixed;
    }

    private CompletableFuture<Void> writeClaimed(List<Memory> memories, List<float[]> knownVectors) {
        List<Memory> active = new ArrayList<>();
        List<float[]> activeVectors = new ArrayList<>();
        List<VectorIndex.Key> removed = new ArrayList<>();
        for (int i = 0; i < memories.size(); i++) {
            Memory m = memories.get(i);
            if (m.state() == MemoryState.ACTIVE) {
                active.add(m);
                if (knownVectors != null) {
                    activeVectors.add(knownVectors.get(i));
                }
            } else {
                removed.add(new VectorIndex.Key(m.team(), m.id(), m.version()));
            }
        }
        CompletableFuture<Void> upserted = CompletableFuture.completedFuture(null);
        if (!active.isEmpty()) {
            long t0 = System.nanoTime();
            List<float[]> vectors = withContexts(
                    active,
                    knownVectors != null
                            ? activeVectors
                            : embedder.embedDocuments(
                                    active.stream().map(Memory::content).toList()));
            long embedded = System.nanoTime();
            Steps.add("embed", embedded - t0);
            List<VectorIndex.Entry> entries = new ArrayList<>(active.size());
            for (int i = 0; i < active.size(); i++) {
                Memory m = active.get(i);
                entries.add(new VectorIndex.Entry(
                        new VectorIndex.Key(m.team(), m.id(), m.version()),
                        m.scope(),
                        m.user(),
                        m.type(),
                        m.tags(),
                        m.lexicalText(), // content and context: only the lexical side reads it
                        m.occurredAt(),
                        vectors.get(i),
                        embedder.modelId(),
                        // below 1 only for a vector mixed with a context: any other keeps its plain cosine
                        mixesContext(m) ? DocumentVector.length(vectors.get(i)) : 1.0));
            }
            upserted = index.upsertSearchable(entries);
            Steps.add("index", System.nanoTime() - embedded);
        }
        CompletableFuture<Void> deleted = CompletableFuture.completedFuture(null);
        if (!removed.isEmpty()) {
            deleted = index.deleteSearchable(removed);
        }
        return CompletableFuture.allOf(upserted, deleted);
    }

    /**
     * Removes deleted memories from the index and (where held) their cold copies, then lets the store purge their
     * tombstones: a tombstone outlives every derived copy, so a failure on the way leaves work the indexer retries.
     */
    public void remove(List<VectorIndex.Key> keys) {
        if (keys.isEmpty()) {
            return;
        }
        index.delete(keys);
        if (cold != null) {
            for (VectorIndex.Key k : keys) {
                cold.delete(k.team(), k.id());
            }
        }
        store.markIndexed(keys);
    }

    /**
     * The record of a memory is gone for good (its tombstone was purged, possibly by a process that does not hold the
     * cold tier): drops its cold copy where this process holds the tier. Idempotent; a no-op without the tier.
     *
     * @return whether a cold tier was asked to drop the copy
     */
    public boolean forget(Id team, Id id) {
        if (cold == null || store.get(team, id).isPresent()) {
            return false; // re-created under the same id since: its copies are live ones
        }
        cold.delete(team, id);
        return true;
    }

    /**
     * The record of an archived memory holds its whole value again (a team change written into its stub, which leaves
     * it archived in place): the cold copy is stale and goes where this process holds the tier, so the text the team
     * replaced is not kept in a second place. Call it only after the record is written: until then the cold copy is
     * the only whole copy. Idempotent; a no-op without the tier.
     */
    public void dropStaleColdCopy(Id team, Id id) {
        if (cold != null) {
            cold.delete(team, id);
        }
    }

    /**
     * Processes one batch of the store's pending index work.
     *
     * @return how many records were brought up to date; 0 means nothing is left that is not already in flight
     */
    public int catchUp(int batchSize) {
        requireCompatibleModel();
        List<IndexWork> work = store.pendingIndex(batchSize);
        List<Memory> upserts = new ArrayList<>();
        List<VectorIndex.Key> deletes = new ArrayList<>();
        for (IndexWork w : work) {
            if (inFlight.containsKey(inFlightKey(w.team(), w.id()))) {
                continue;
            } else if (w.isDelete()) {
                deletes.add(new VectorIndex.Key(w.team(), w.id(), w.version()));
            } else {
                upserts.add(w.memory());
            }
        }
        indexDurably(upserts);
        remove(deletes);
        return upserts.size() + deletes.size();
    }

    /**
     * Brings one named memory's index entry up to date, whatever the notification that named it said: the store's
     * strongly consistent record decides (a stale or duplicated notification does no harm, a lost one is caught by
     * {@link #catchUp}).
     *
     * @return whether there was work to do
     */
    public boolean bringUpToDate(Id team, Id id) {
        requireCompatibleModel();
        if (inFlight.containsKey(inFlightKey(team, id))) {
            return false; // the write path is indexing it right now
        }
        Optional<IndexWork> work = store.indexWork(team, id);
        if (work.isEmpty()) {
            return false;
        }
        IndexWork w = work.get();
        if (w.isDelete()) {
            remove(List.of(new VectorIndex.Key(team, id, w.version())));
        } else {
            indexDurably(List.of(w.memory()));
        }
        return true;
    }

    /** Runs {@link #catchUp} until nothing is pending. */
    public int converge(int batchSize) {
        int total = 0;
        int n;
        while ((n = catchUp(batchSize)) > 0) {
            total += n;
        }
        return total;
    }
}
