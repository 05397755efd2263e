package dev.cairn.model.port;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * The derived search index: vectors (kNN) and text (BM25) of active memories.
 *
 * <p>Invariants: the namespace filter is applied inside the query, never to a shared result afterwards (a post-filter
 * both leaks ranking information and starves small tenants); an entry older than the one already indexed for the
 * same memory is ignored, so a late retry can never roll the index back; {@link #upsert} and {@link #delete} are
 * durable when they return.
 *
 * <p>{@link #upsertSearchable} and {@link #deleteSearchable} split the two promises for an index that makes writes
 * durable in groups (one commit for many writers): they return once the change is searchable and hand back a future
 * that completes once it is durable, or fails when it never will be (the index went back to its last durable state;
 * the caller leaves the memories pending so catch-up writes them again). An adapter whose write is durable on return
 * keeps the defaults, which report durability at once.
 */
public interface VectorIndex {

    /** The embedding model of the vectors held, empty while the index is empty and unpinned. */
    Optional<String> modelId();

    void upsert(List<Entry> entries);

    void delete(List<Key> keys);

    /** As {@link #upsert}, but returns once the entries are searchable; the future says when they are durable. */
    default CompletableFuture<Void> upsertSearchable(List<Entry> entries) {
        upsert(entries);
        return CompletableFuture.completedFuture(null);
    }

    /** As {@link #delete}, but returns once the removal is searchable; the future says when it is durable. */
    default CompletableFuture<Void> deleteSearchable(List<Key> keys) {
        delete(keys);
        return CompletableFuture.completedFuture(null);
    }

    /** kNN and BM25 candidates among the memories the filter admits, each with its exact cosine similarity. */
    List<Candidate> search(Search search);

    /**
     * A search begun before its query vector exists: an index may run what needs no vector (the BM25 part) at once,
     * on the calling thread, while another thread embeds the query; {@link Started#finish} ends it with the vector
     * and answers what {@link #search} would. The default starts nothing early.
     */
    default Started start(Filter filter, String modelId, String text, int k) {
        return new Started() {
            @Override
            public List<Candidate> finish(float[] vector) {
                return search(new Search(filter, vector, modelId, text, k));
            }

            @Override
            public void close() {}
        };
    }

    /** A started search; {@link #close} releases what it holds when {@link #finish} is never called. */
    interface Started extends AutoCloseable {
        List<Candidate> finish(float[] vector);

        @Override
        void close();
    }

    /**
     * Waits for a durability future and throws what it failed with, unwrapped: an index outage stays the
     * {@code StoreUnavailable} it was, not a {@code CompletionException} around it.
     */
    static void await(CompletableFuture<Void> durable) {
        try {
            durable.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /**
     * Why the index cannot serve right now (its storage failed and it has not recovered yet), or empty when it can.
     * Readiness reports it; an index that recovers by itself (reopening after a full disk) returns empty again.
     */
    default Optional<String> unavailable() {
        return Optional.empty();
    }

    record Key(Id team, Id id, long version) {}

    /**
     * {@code occurredAt} lets an index filter or sort by time (OpenSearch maps it as a date). {@code content} is the
     * text the lexical side indexes: the memory's content and its context ({@link
     * dev.cairn.model.memory.Memory#lexicalText}). An index stores the unit vector along {@code vector} scaled by
     * {@code length} (in (0, 1]), and a search scores it by the dot product with the unit query: the cosine times
     * {@code length}. 1 for a memory without a context; for one with a context the vector is a mix of the content's and
     * the context's ({@link dev.cairn.model.index.DocumentVector}), and its length is what makes the score the mix of
     * the two cosines.
     */
    record Entry(
            Key key,
            Scope scope,
            Id user,
            MemoryType type,
            List<Id> tags,
            String content,
            Instant occurredAt,
            float[] vector,
            String modelId,
            double length) {

        public Entry {
            if (!(length > 0 && length <= 1)) {
                throw new IllegalArgumentException("a vector's length is in (0, 1], not " + length);
            }
        }

        /** A unit vector's entry: scored by its cosine. */
        public Entry(
                Key key,
                Scope scope,
                Id user,
                MemoryType type,
                List<Id> tags,
                String content,
                Instant occurredAt,
                float[] vector,
                String modelId) {
            this(key, scope, user, type, tags, content, occurredAt, vector, modelId, 1.0);
        }
    }

    /**
     * What a caller may see: memories of {@code team} that are team-scope or owned by {@code viewer}, narrowed by
     * {@code scope}, {@code types} and {@code tags} (any of) when given.
     */
    record Filter(Id team, Id viewer, Scope scope, Set<MemoryType> types, Set<Id> tags) {}

    record Search(Filter filter, float[] vector, String modelId, String text, int k) {}

    /**
     * {@code similarity} is the cosine similarity in [-1, 1] times the entry's length (a memory with a context: the
     * mix of its content's and its context's cosines); {@code lexical} the BM25 score, 0 if not matched.
     */
    record Candidate(Id id, double similarity, double lexical) {}
}
