package dev.cairn.embedded;

import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.DocumentVector;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.timing.Steps;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.SortedDocValuesField;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReader;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.SortedDocValues;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.BooleanClause.Occur;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.Query;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherFactory;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.AlreadyClosedException;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.store.NRTCachingDirectory;
import org.apache.lucene.util.BytesRef;

/**
 * {@link VectorIndex} on one Lucene index holding, per memory, an HNSW vector ({@code cosine}), the BM25-analysed
 * text and keyword fields for the namespace filter.
 *
 * <p>The filter goes into the {@link KnnFloatVectorQuery} itself, so HNSW explores only admissible documents (and
 * Lucene falls back to an exact scan when the filter is very selective). The model id is pinned in the commit
 * metadata on first write; a different model is refused for writes and queries alike.
 *
 * <p>Writes are committed in groups: {@link #upsertSearchable} / {@link #deleteSearchable} add the documents and
 * reopen the near-real-time reader, so the change is searchable when they return, but do not commit (a commit is
 * an fsync of every new file, tens of milliseconds, which a single write used to pay alone). One background
 * committer commits whatever is uncommitted every {@code commitInterval} and then completes the futures of the
 * writes that commit covered; only then does the caller mark the memories indexed in the record store, so a crash
 * before the commit loses nothing: the record store still lists them as pending and catch-up indexes them again.
 * {@link #upsert} / {@link #delete} commit at once and return when durable, as before. Versions already applied are
 * kept in memory so a late, older entry is ignored.
 *
 * <p>A write that fails on the disk (full, or an I/O error) can close Lucene's writer for good (a "tragic" failure:
 * every later call would throw {@code AlreadyClosedException} until a restart), or silently drop the buffered
 * documents of the failed batch. Either way the index rolls back to its last commit, which a failed write never
 * damages, and reopens the writer on it, reloading the applied versions from it; the memories whose indexing failed
 * are still marked pending in the record store, so the catch-up poller indexes them again once space returns. The
 * failed call answers {@link StoreUnavailable} (503). While the reopen itself fails, every call does, and
 * {@link #unavailable()} says why, which turns readiness DOWN.
 */
public final class LuceneVectorIndex implements VectorIndex, AutoCloseable {

    static final String F_KEY = "key";
    static final String F_ID = "id";
    static final String F_TEAM = "team";
    static final String F_SCOPE = "scope";
    static final String F_USER = "user";
    static final String F_TYPE = "type";
    static final String F_TAG = "tag";
    static final String F_TEXT = "text";
    static final String F_VECTOR = "vector";
    static final String F_VERSION = "version";
    private static final String MODEL_KEY = "cairn.model";
    /** The commit key naming the lexical field's analyser; an index written before it existed has none. */
    private static final String ANALYZER_KEY = "cairn.analyzer";

    /**
     * Dot product of the unit-length float vectors: the same order and scores as the cosine (both are (1 + cos) / 2
     * in Lucene), without the two norms the cosine recomputes for every vector the graph search visits — on Java 17
     * Lucene scores in scalar code, and the HNSW walk was the largest Java part of a recall's profile. The graph of such
     * an index has only ever held float vectors, so its scores are exact and need no re-scoring.
     */
    static final String VECTORS_DOT_PRODUCT = "dot-product";
    /**
     * What an index written before the dot product compares by. A field keeps its similarity for life (Lucene records
     * it in every segment's field infos and refuses another), and such an index may still hold int8-quantized segments
     * whose graph scores are approximate, so its beam is re-scored.
     */
    static final String VECTORS_COSINE = "cosine";

    static final String ANALYZER_CJK_BIGRAMS = "cjk-bigrams";
    static final String ANALYZER_STANDARD = "standard";
    /**
     * HNSW over the float vectors with a denser graph than Lucene's default (M = 32, construction beam 200 instead of
     * 16 / 100). Memories are short, similar sentences; on 100k of them the default graph kept only about 91 % of the
     * exact top 10. The graph is built on floats, not on int8 scalar-quantized vectors: the quantized graph (this
     * index's format until issue 18) ranks its neighbours by approximate scores and, on the 100k-memory bench's
     * vectors merged into one segment, kept 98.4 % of the exact top 10 at a query beam of 200 against 99.3 % for the
     * float graph, which also searched no slower on Java 17 (timed under load, so noisy). A float graph's scores are
     * exact, so its beam is not re-scored (see {@link #VECTORS_DOT_PRODUCT}). Readers need no codec: each segment records its format by name, so segments written by the
     * int8 format stay readable and are rewritten as floats when they merge.
     */
    private static final KnnVectorsFormat VECTORS = new Lucene99HnswVectorsFormat(32, 200);

    private static final System.Logger LOG = System.getLogger(LuceneVectorIndex.class.getName());

    private static final ExecutorService SEARCH_POOL =
            Executors.newFixedThreadPool(Math.max(2, Runtime.getRuntime().availableProcessors()), r -> {
                Thread t = new Thread(r, "cairn-lucene-search");
                t.setDaemon(true);
                return t;
            });
    /**
     * Like OpenSearch's num_candidates: the beam explored per query, whatever k the caller asks for. Measured on 100k
     * memories with this graph: beam 100 kept 95.8 % of the exact top 10, beam 200 98.5 %.
     */
    private static final int MIN_KNN_CANDIDATES = 200;

    private static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    /**
     * How long a write may stay searchable but not yet durable. Short enough that the window in which a crash makes
     * catch-up re-embed memories stays small, long enough that many writers share one fsync.
     */
    static final Duration COMMIT_INTERVAL = Duration.ofMillis(100);

    private final Directory directory;
    private volatile IndexWriter writer;
    private volatile SearcherManager searchers;
    /** Why the index cannot be used right now (its writer failed and could not be reopened), or null. */
    private volatile String broken;
    /**
     * The lexical field's analyser ({@link TextAnalyzers#cjkBigrams}: Chinese is searched by overlapping bigrams, not
     * single characters, which raised Recall@10 on the recall benchmark's Chinese set); queries are analysed alike.
     * An index written before the analyser was recorded keeps {@link TextAnalyzers#standard}: its terms were cut that
     * way, and a query cut differently would no longer match them.
     */
    private final Analyzer analyzer;

    private final String analyzerName;

    /** {@link #VECTORS_DOT_PRODUCT} or {@link #VECTORS_COSINE}, fixed when the index was first written. */
    private final String vectorsName;

    private final VectorSimilarityFunction similarity;

    private final Map<String, Long> appliedVersions = new ConcurrentHashMap<>();
    private final Object writeLock = new Object();
    private volatile String model;
    /**
     * The durability futures of writes applied to the current writer since its last commit, guarded by
     * {@link #writeLock}: a write adds its documents and its future under the lock, so whatever is in this list when
     * the committer takes it is covered by the commit that follows.
     */
    private List<CompletableFuture<Void>> uncommitted = new ArrayList<>();
    /** The background committer; null when commits are left to explicit calls (tests that simulate a crash). */
    private final ScheduledExecutorService committer;

    public LuceneVectorIndex(Path dir) {
        this(dir, d -> d);
    }

    /** {@code wrap} decorates the index's directory: the fault tests inject disk failures through it. */
    LuceneVectorIndex(Path dir, UnaryOperator<Directory> wrap) {
        this(dir, wrap, COMMIT_INTERVAL);
    }

    /** {@code commitInterval} null: no background committer (only {@link #commitPending} and close commit). */
    LuceneVectorIndex(Path dir, UnaryOperator<Directory> wrap, Duration commitInterval) {
        try {
            // Newly flushed small segments stay in memory until a commit or a merge writes them out (Lucene's
            // NRTCachingDirectory, made for frequent near-real-time reopens): a single write flushes a one-document
            // segment to become searchable, and writing its dozen files to disk was most of that reopen (6-8 ms
            // against 4.4 at 100,000 memories). Commits still fsync everything they reference, so durability and
            // crash recovery are unchanged; at most 64 MB stay cached, merges above 5 MB go straight to disk.
            directory = wrap.apply(new NRTCachingDirectory(FSDirectory.open(dir), 5.0, 64.0));
            analyzerName = analyzerOf(directory);
            analyzer = ANALYZER_STANDARD.equals(analyzerName) ? TextAnalyzers.standard() : TextAnalyzers.cjkBigrams();
            vectorsName = vectorsOf(directory);
            similarity = VECTORS_COSINE.equals(vectorsName)
                    ? VectorSimilarityFunction.COSINE
                    : VectorSimilarityFunction.DOT_PRODUCT;
            open();
            Map<String, String> meta = new HashMap<>();
            writer.getLiveCommitData().forEach(e -> meta.put(e.getKey(), e.getValue()));
            model = meta.get(MODEL_KEY);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the vector index at " + dir, e);
        }
        if (commitInterval == null) {
            committer = null;
        } else {
            committer = Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "cairn-lucene-commit");
                t.setDaemon(true);
                return t;
            });
            long ms = commitInterval.toMillis();
            committer.scheduleWithFixedDelay(this::commitQuietly, ms, ms, TimeUnit.MILLISECONDS);
        }
    }

    /** The analyser an existing index was written with; a new (or still empty) index gets CJK bigrams. */
    private static String analyzerOf(Directory directory) throws IOException {
        if (!DirectoryReader.indexExists(directory)) {
            return ANALYZER_CJK_BIGRAMS;
        }
        Map<String, String> meta = SegmentInfos.readLatestCommit(directory).getUserData();
        if (meta.containsKey(ANALYZER_KEY)) {
            return meta.get(ANALYZER_KEY);
        }
        return meta.containsKey(MODEL_KEY) ? ANALYZER_STANDARD : ANALYZER_CJK_BIGRAMS;
    }

    /**
     * How an existing index compares vectors, read from its segments' field infos (the record Lucene itself enforces);
     * an index without vectors yet gets the dot product.
     */
    private static String vectorsOf(Directory directory) throws IOException {
        if (!DirectoryReader.indexExists(directory)) {
            return VECTORS_DOT_PRODUCT;
        }
        try (DirectoryReader reader = DirectoryReader.open(directory)) {
            for (LeafReaderContext leaf : reader.leaves()) {
                FieldInfo field = leaf.reader().getFieldInfos().fieldInfo(F_VECTOR);
                if (field != null && field.getVectorDimension() > 0) {
                    return field.getVectorSimilarityFunction() == VectorSimilarityFunction.COSINE
                            ? VECTORS_COSINE
                            : VECTORS_DOT_PRODUCT;
                }
            }
        }
        return VECTORS_DOT_PRODUCT;
    }

    /** Whether the graph's scores are exact (every segment holds float vectors), so the beam needs no re-scoring. */
    private boolean exactGraph() {
        return similarity == VectorSimilarityFunction.DOT_PRODUCT;
    }

    /** How the vector field compares vectors (what {@link #vectorsOf} reads back). */
    String vectorsName() {
        return vectorsName;
    }

    /** The name of the lexical field's analyser (what {@link #analyzerOf} reads back). */
    String analyzerName() {
        return analyzerName;
    }

    /** Opens a writer on the last commit, a searcher manager on it, and the versions that commit holds. */
    private void open() throws IOException {
        IndexWriterConfig cfg = new IndexWriterConfig(analyzer);
        cfg.setRAMBufferSizeMB(64);
        // A kNN query walks one graph per segment, so fewer, larger segments answer faster; merging a little
        // more eagerly than Lucene's default (10 per tier, 2 MB floor) trades some ingest work for recall latency.
        TieredMergePolicy merges = new TieredMergePolicy();
        merges.setSegmentsPerTier(4);
        merges.setFloorSegmentMB(16);
        cfg.setMergePolicy(merges);
        // Lucene 9 waits up to 500 ms on every near-real-time reopen for the merges the policy proposes for the new
        // tiny segments ("merge on refresh"); a single write reopens once, and the write-phase profile showed its
        // request thread parked in that wait (MergeSpecification.await) about 20 ms at a time. Those merges still
        // run, in the background, like any other.
        cfg.setMaxFullFlushMergeWaitMillis(0);
        cfg.setCodec(new Lucene912Codec() {
            @Override
            public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
                return VECTORS;
            }
        });
        IndexWriter w = new IndexWriter(directory, cfg);
        try {
            searchers = new SearcherManager(w, new SearcherFactory() {
                @Override
                public IndexSearcher newSearcher(IndexReader reader, IndexReader previous) {
                    // segments are searched in parallel: a kNN query walks one HNSW graph per segment
                    return new IndexSearcher(reader, SEARCH_POOL);
                }
            });
            writer = w;
            // the versions of the commit this writer opened on, and only those: a failed batch put its versions in
            // before its commit failed, and keeping them would skip those memories when the poller indexes them again
            appliedVersions.clear();
            loadAppliedVersions();
        } catch (IOException | RuntimeException e) {
            w.rollback();
            throw e;
        }
    }

    /**
     * Reopens the writer when a disk failure closed it; afterwards the index serves again without a restart.
     *
     * @throws StoreUnavailable while it cannot be reopened
     */
    private void ensureOpen() {
        if (writer.isOpen() && broken == null) {
            return;
        }
        synchronized (writeLock) {
            if (writer.isOpen() && broken == null) {
                return;
            }
            Throwable why = writer.getTragicException();
            // whatever the failed writer held uncommitted is gone with it: its writers learn it is not durable
            failUncommitted(new StoreUnavailable(
                    "the vector index (its writer failed before committing: " + why + ")", RETRY_AFTER, why));
            try {
                searchers.close();
            } catch (IOException | RuntimeException e) {
                // the old reader's files may be gone with the failed writer; nothing of it is used again
            }
            try {
                open();
                broken = null;
                LOG.log(
                        System.Logger.Level.WARNING,
                        "vector index reopened after a failure ({0}); pending memories are indexed again",
                        why == null ? "unknown" : why.toString());
            } catch (IOException | RuntimeException e) {
                broken = "the vector index's writer failed (" + (why == null ? e : why) + ") and cannot be reopened: "
                        + e;
                throw new StoreUnavailable("the vector index", RETRY_AFTER, e);
            }
        }
    }

    /**
     * A failed write as the outage it is: back to the last commit (the batch's buffered documents may be half gone),
     * the writer reopened on it, and the caller told to retry; its memories stay pending and are indexed later.
     */
    private StoreUnavailable failed(String what, Exception e, IndexWriter failedWriter) {
        // only the writer that failed is rolled back: another thread may have reopened a healthy one since
        if (failedWriter == writer) {
            try {
                failedWriter.rollback();
            } catch (IOException | RuntimeException ignored) {
                // a writer closed by a tragic failure has rolled back already
            }
        }
        try {
            ensureOpen();
        } catch (StoreUnavailable reopenFailed) {
            e.addSuppressed(reopenFailed);
        }
        return new StoreUnavailable("the vector index (" + what + " failed: " + e + ")", RETRY_AFTER, e);
    }

    /**
     * Also tries the reopen while the index is broken: readiness probes are what find out that space returned, since
     * a load balancer sends no other traffic to an instance that is not ready.
     */
    @Override
    public Optional<String> unavailable() {
        if (broken != null || !writer.isOpen()) {
            try {
                ensureOpen();
            } catch (StoreUnavailable e) {
                // broken says why
            }
        }
        return Optional.ofNullable(broken);
    }

    private void loadAppliedVersions() throws IOException {
        try (DirectoryReader reader = DirectoryReader.open(writer)) {
            appliedVersions.putAll(liveVersions(reader));
        }
    }

    /** The version of every live document of {@code reader}, by key. */
    private static Map<String, Long> liveVersions(IndexReader reader) throws IOException {
        Map<String, Long> out = new HashMap<>();
        for (LeafReaderContext leaf : reader.leaves()) {
            LeafReader r = leaf.reader();
            NumericDocValues versions = r.getNumericDocValues(F_VERSION);
            StoredFields stored = r.storedFields();
            if (versions == null) {
                continue;
            }
            for (int doc = versions.nextDoc(); doc != NumericDocValues.NO_MORE_DOCS; doc = versions.nextDoc()) {
                if (r.getLiveDocs() == null || r.getLiveDocs().get(doc)) {
                    out.put(stored.document(doc).get(F_KEY), versions.longValue());
                }
            }
        }
        return out;
    }

    @Override
    public Optional<String> modelId() {
        return Optional.ofNullable(model);
    }

    /** Searchable and durable when it returns: the group commit is run at once on the caller's thread. */
    @Override
    public void upsert(List<Entry> entries) {
        awaitDurable(upsertSearchable(entries));
    }

    @Override
    public void delete(List<Key> keys) {
        awaitDurable(deleteSearchable(keys));
    }

    private void awaitDurable(CompletableFuture<Void> durable) {
        if (!durable.isDone()) {
            commitPending();
        }
        VectorIndex.await(durable);
    }

    @Override
    public CompletableFuture<Void> upsertSearchable(List<Entry> entries) {
        if (entries.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return write("write", w -> {
            for (Entry e : entries) {
                if (model != null && !model.equals(e.modelId())) {
                    throw new EmbeddingModelMismatch(model, e.modelId());
                }
                if (model == null) {
                    model = e.modelId();
                }
                String key = key(e.key().team(), e.key().id());
                Long applied = appliedVersions.get(key);
                if (applied != null && applied >= e.key().version()) {
                    continue; // a newer (or the same) version is already indexed
                }
                w.updateDocument(new Term(F_KEY, key), toDocument(key, e));
                appliedVersions.put(key, e.key().version());
            }
        });
    }

    @Override
    public CompletableFuture<Void> deleteSearchable(List<Key> keys) {
        if (keys.isEmpty()) {
            return CompletableFuture.completedFuture(null);
        }
        return write("delete", w -> {
            for (Key k : keys) {
                String key = key(k.team(), k.id());
                Long applied = appliedVersions.get(key);
                if (applied != null && applied > k.version()) {
                    continue;
                }
                w.deleteDocuments(new Term(F_KEY, key));
                appliedVersions.put(key, k.version());
            }
        });
    }

    private interface Change {
        void apply(IndexWriter w) throws IOException;
    }

    /**
     * Applies a change to the writer and registers its durability future under the write lock, then makes it
     * searchable. A change skipped as older than what is applied still waits for the next commit: the newer version
     * that made it redundant may itself not be committed yet.
     */
    private CompletableFuture<Void> write(String what, Change change) {
        ensureOpen();
        CompletableFuture<Void> durable = new CompletableFuture<>();
        IndexWriter w;
        long t0 = System.nanoTime();
        synchronized (writeLock) {
            w = writer;
            try {
                change.apply(w);
            } catch (IOException | AlreadyClosedException ex) {
                throw failed(what, ex, w);
            }
            uncommitted.add(durable);
        }
        long t1 = System.nanoTime();
        // parts of the write's "index" step in Server-Timing: adding the documents, and the reopen that makes them
        // searchable before the write is answered
        Steps.add("index.add", t1 - t0);
        try {
            searchers.maybeRefreshBlocking();
            Steps.add("index.reopen", System.nanoTime() - t1);
        } catch (IOException | AlreadyClosedException ex) {
            synchronized (writeLock) {
                throw failed(what + " (reopening the reader)", ex, w);
            }
        }
        return durable;
    }

    /** The background committer's run: a failure is already reported to the writers whose futures it fails. */
    private void commitQuietly() {
        try {
            commitPending();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "vector index group commit failed: {0}", e.toString());
        }
    }

    /**
     * Commits whatever was written since the last commit and completes those writes' futures; a failed commit rolls
     * the index back to its last commit and fails them (their memories stay pending in the record store).
     */
    void commitPending() {
        IndexWriter w;
        List<CompletableFuture<Void>> covered;
        synchronized (writeLock) {
            if (uncommitted.isEmpty()) {
                return;
            }
            w = writer;
            covered = uncommitted;
            uncommitted = new ArrayList<>();
        }
        // outside the lock: writers go on adding documents (and making them searchable) during the fsync
        try {
            if (model != null) {
                w.setLiveCommitData(
                        Map.of(MODEL_KEY, model, ANALYZER_KEY, analyzerName).entrySet());
            }
            w.commit();
        } catch (IOException | RuntimeException e) {
            StoreUnavailable why;
            synchronized (writeLock) {
                why = failed("commit", e, w);
            }
            covered.forEach(f -> f.completeExceptionally(why));
            return;
        }
        covered.forEach(f -> f.complete(null));
    }

    /** Guarded by {@link #writeLock}. */
    private void failUncommitted(StoreUnavailable why) {
        List<CompletableFuture<Void>> lost = uncommitted;
        uncommitted = new ArrayList<>();
        lost.forEach(f -> f.completeExceptionally(why));
    }

    /**
     * A write that fails on the disk rolls the writer back on the thread that wrote (the catch-up poller, say), which
     * closes it under a search running beside it ({@code AlreadyClosedException}: "this IndexWriter is closed",
     * "queue is closed"). Such a search is not a bug of its own: it reads again on the reopened writer, and only
     * when that keeps happening answers the outage (503), never a 500.
     */
    @Override
    public List<Candidate> search(Search search) {
        if (model != null && !model.equals(search.modelId())) {
            throw new EmbeddingModelMismatch(model, search.modelId());
        }
        for (int attempt = 1; ; attempt++) {
            ensureOpen();
            try {
                return searchOnce(search);
            } catch (AlreadyClosedException e) {
                if (attempt == 3) {
                    throw new StoreUnavailable("the vector index (closed under a search: " + e + ")", RETRY_AFTER, e);
                }
            }
        }
    }

    /**
     * Runs the BM25 part at once, on the calling thread, and holds the searcher for the kNN part: the two see the same
     * point-in-time view, as in {@link #search}.
     */
    @Override
    public Started start(Filter filter, String modelId, String text, int k) {
        if (model != null && !model.equals(modelId)) {
            throw new EmbeddingModelMismatch(model, modelId);
        }
        ensureOpen();
        Begun begun;
        try {
            begun = new Begun(filter, text, k);
        } catch (AlreadyClosedException e) {
            // the writer is reopening: the plain search, with its retries, does it all once the vector is there
            return VectorIndex.super.start(filter, modelId, text, k);
        }
        return new Started() {
            @Override
            public List<Candidate> finish(float[] vector) {
                try {
                    return begun.collect(vector);
                } catch (AlreadyClosedException e) {
                    begun.close();
                    return search(new Search(filter, vector, modelId, text, k));
                }
            }

            @Override
            public void close() {
                begun.close();
            }
        };
    }

    private List<Candidate> searchOnce(Search search) {
        try (Begun begun = new Begun(search.filter(), search.text(), search.k())) {
            return begun.collect(search.vector());
        }
    }

    /** A search whose BM25 part has run, holding its searcher until {@link #collect} and {@link #close}. */
    private final class Begun implements AutoCloseable {

        private final Query filter;
        private final int k;
        private final IndexSearcher searcher;
        /** BM25 hits, best first; empty when the text has no terms. */
        private final ScoreDoc[] lexicalHits;

        private boolean released;

        Begun(Filter f, String text, int k) {
            long t0 = System.nanoTime();
            this.filter = filterQuery(f);
            this.k = k;
            try {
                searchers.maybeRefresh();
                searcher = searchers.acquire();
            } catch (IOException e) {
                throw new UncheckedIOException("vector index search failed", e);
            }
            try {
                long t1 = System.nanoTime();
                // parts of the recall's "search" step in Server-Timing
                Steps.add("search.open", t1 - t0);
                Query terms = textQuery(text);
                if (terms == null) {
                    lexicalHits = new ScoreDoc[0];
                } else {
                    Query bm25 = new BooleanQuery.Builder()
                            .add(terms, Occur.MUST)
                            .add(filter, Occur.FILTER)
                            .build();
                    lexicalHits = searcher.search(bm25, k).scoreDocs;
                }
                Steps.add("search.bm25", System.nanoTime() - t1);
            } catch (IOException | RuntimeException e) {
                close();
                if (e instanceof IOException io) {
                    throw new UncheckedIOException("vector index search failed", io);
                }
                throw (RuntimeException) e;
            }
        }

        List<Candidate> collect(float[] vector) {
            float[] query = normalized(vector);
            try {
                long t1 = System.nanoTime();
                int beam = Math.max(k, MIN_KNN_CANDIDATES);
                TopDocs knn = searcher.search(new KnnFloatVectorQuery(F_VECTOR, query, beam, filter), beam);
                long t2 = System.nanoTime();
                Steps.add("search.knn", t2 - t1);
                Map<Integer, Double> cosine = new HashMap<>();
                List<Integer> docs = new ArrayList<>();
                if (exactGraph()) {
                    // a float graph scores exactly, best first: its first k are the exact top k
                    for (ScoreDoc sd : knn.scoreDocs) {
                        if (docs.size() == k) {
                            break;
                        }
                        docs.add(sd.doc);
                        cosine.put(sd.doc, sd.score * 2.0 - 1.0);
                    }
                } else {
                    // a legacy index may rank by quantized vectors: take the whole beam, re-score, keep the best k
                    List<Integer> beamDocs = new ArrayList<>();
                    for (ScoreDoc sd : knn.scoreDocs) {
                        beamDocs.add(sd.doc);
                    }
                    beamDocs.sort(null);
                    cosine.putAll(exactCosines(searcher, beamDocs, query));
                    docs.addAll(beamDocs);
                    docs.sort((a, b) -> Double.compare(cosine.get(b), cosine.get(a)));
                    if (docs.size() > k) {
                        docs.subList(k, docs.size()).clear();
                    }
                }
                Set<Integer> inBeam = new HashSet<>(docs);
                Map<Integer, Double> lexical = new HashMap<>();
                List<Integer> textOnly = new ArrayList<>();
                for (ScoreDoc sd : lexicalHits) {
                    lexical.put(sd.doc, (double) sd.score);
                    if (!inBeam.contains(sd.doc)) {
                        textOnly.add(sd.doc);
                    }
                }
                textOnly.sort(null);
                cosine.putAll(exactCosines(searcher, textOnly, query));
                docs.addAll(textOnly);
                long t3 = System.nanoTime();
                Steps.add("search.cosine", t3 - t2);
                docs.sort(null);
                Map<Integer, Id> ids = ids(searcher, docs);
                Steps.add("search.ids", System.nanoTime() - t3);
                List<Candidate> out = new ArrayList<>(docs.size());
                for (int doc : docs) {
                    out.add(new Candidate(ids.get(doc), cosine.get(doc), lexical.getOrDefault(doc, 0.0)));
                }
                return out;
            } catch (IOException e) {
                throw new UncheckedIOException("vector index search failed", e);
            }
        }

        @Override
        public void close() {
            if (released) {
                return;
            }
            released = true;
            try {
                searchers.release(searcher);
            } catch (IOException | AlreadyClosedException e) {
                LOG.log(System.Logger.Level.DEBUG, "releasing a searcher failed: " + e);
            }
        }
    }

    /**
     * Brute-force top-k by exact cosine over every admissible vector; the ground truth the benchmark compares HNSW
     * against. Not used on the request path.
     */
    public List<Candidate> exactSearch(Filter f, float[] vector, int k) {
        ensureOpen();
        try {
            searchers.maybeRefresh();
            IndexSearcher searcher = searchers.acquire();
            try {
                float[] query = normalized(vector);
                TopDocs all = searcher.search(
                        filterQuery(f), Math.max(1, searcher.getIndexReader().maxDoc()));
                List<Integer> docs = new ArrayList<>(all.scoreDocs.length);
                for (ScoreDoc sd : all.scoreDocs) {
                    docs.add(sd.doc);
                }
                docs.sort(null);
                Map<Integer, Double> cos = exactCosines(searcher, docs, query);
                Map<Integer, Id> ids = ids(searcher, docs);
                List<Candidate> scored = new ArrayList<>(docs.size());
                for (int doc : docs) {
                    scored.add(new Candidate(ids.get(doc), cos.get(doc), 0));
                }
                scored.sort((a, b) -> Double.compare(b.similarity(), a.similarity()));
                return scored.subList(0, Math.min(k, scored.size()));
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * BM25 alone: the top {@code k} admissible memories by the lexical score of {@code text}, best first. The
     * recall benchmark's lexical baseline over the very text the server indexed. Not used on the request path.
     */
    public List<Candidate> lexicalSearch(Filter f, String text, int k) {
        try {
            searchers.maybeRefresh();
            IndexSearcher searcher = searchers.acquire();
            try {
                Query q = textQuery(text);
                if (q == null) {
                    return List.of();
                }
                Query bm25 = new BooleanQuery.Builder()
                        .add(q, Occur.MUST)
                        .add(filterQuery(f), Occur.FILTER)
                        .build();
                ScoreDoc[] hits = searcher.search(bm25, k).scoreDocs;
                List<Integer> docs = new ArrayList<>();
                for (ScoreDoc sd : hits) {
                    docs.add(sd.doc);
                }
                docs.sort(null);
                Map<Integer, Id> ids = ids(searcher, docs);
                List<Candidate> out = new ArrayList<>(hits.length);
                for (ScoreDoc sd : hits) {
                    out.add(new Candidate(ids.get(sd.doc), 0, sd.score));
                }
                return out;
            } finally {
                searchers.release(searcher);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Query filterQuery(Filter f) {
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        b.add(new TermQuery(new Term(F_TEAM, f.team().value())), Occur.FILTER);
        Query mine = new BooleanQuery.Builder()
                .add(new TermQuery(new Term(F_SCOPE, Scope.USER.wire())), Occur.FILTER)
                .add(new TermQuery(new Term(F_USER, f.viewer().value())), Occur.FILTER)
                .build();
        Query team = new TermQuery(new Term(F_SCOPE, Scope.TEAM.wire()));
        if (f.scope() == Scope.USER) {
            b.add(mine, Occur.FILTER);
        } else if (f.scope() == Scope.TEAM) {
            b.add(team, Occur.FILTER);
        } else {
            b.add(
                    new BooleanQuery.Builder()
                            .add(mine, Occur.SHOULD)
                            .add(team, Occur.SHOULD)
                            .setMinimumNumberShouldMatch(1)
                            .build(),
                    Occur.FILTER);
        }
        if (f.types() != null && !f.types().isEmpty()) {
            BooleanQuery.Builder types = new BooleanQuery.Builder();
            for (MemoryType t : f.types()) {
                types.add(new TermQuery(new Term(F_TYPE, t.wire())), Occur.SHOULD);
            }
            b.add(types.setMinimumNumberShouldMatch(1).build(), Occur.FILTER);
        }
        if (f.tags() != null && !f.tags().isEmpty()) {
            BooleanQuery.Builder tags = new BooleanQuery.Builder();
            for (Id t : f.tags()) {
                tags.add(new TermQuery(new Term(F_TAG, t.value())), Occur.SHOULD);
            }
            b.add(tags.setMinimumNumberShouldMatch(1).build(), Occur.FILTER);
        }
        return b.build();
    }

    /** A disjunction of the analysed query terms (no query syntax: user text is never parsed as a query). */
    private Query textQuery(String text) throws IOException {
        if (text == null || text.isBlank()) {
            return null;
        }
        BooleanQuery.Builder b = new BooleanQuery.Builder();
        int terms = 0;
        try (TokenStream ts = analyzer.tokenStream(F_TEXT, text)) {
            CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
            ts.reset();
            while (ts.incrementToken() && terms < IndexSearcher.getMaxClauseCount() / 2) {
                b.add(new TermQuery(new Term(F_TEXT, term.toString())), Occur.SHOULD);
                terms++;
            }
            ts.end();
        }
        return terms == 0 ? null : b.build();
    }

    /** Exact cosines for {@code docs} (ascending), one forward pass per segment. */
    private static Map<Integer, Double> exactCosines(IndexSearcher searcher, List<Integer> docs, float[] query)
            throws IOException {
        Map<Integer, Double> out = new HashMap<>();
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        FloatVectorValues values = null;
        int leafIndex = -1;
        for (int doc : docs) {
            int li = ReaderUtil.subIndex(doc, leaves);
            if (li != leafIndex) {
                leafIndex = li;
                values = leaves.get(li).reader().getFloatVectorValues(F_VECTOR);
            }
            int local = doc - leaves.get(li).docBase;
            boolean present = values != null
                    && (values.docID() == local || (values.docID() < local && values.advance(local) == local));
            // the query is unit length and the stored vector its length (1, or less for a memory with a context), so
            // the dot product is the cosine times that length
            out.put(
                    doc,
                    present
                            ? VectorSimilarityFunction.DOT_PRODUCT.compare(query, values.vectorValue()) * 2.0 - 1.0
                            : 0.0);
        }
        return out;
    }

    /** Memory ids of {@code docs} (ascending) from doc values: far cheaper than loading stored documents. */
    private static Map<Integer, Id> ids(IndexSearcher searcher, List<Integer> docs) throws IOException {
        Map<Integer, Id> out = new HashMap<>();
        List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
        SortedDocValues values = null;
        int leafIndex = -1;
        for (int doc : docs) {
            int li = ReaderUtil.subIndex(doc, leaves);
            if (li != leafIndex) {
                leafIndex = li;
                values = DocValues.getSorted(leaves.get(li).reader(), F_ID);
            }
            if (!values.advanceExact(doc - leaves.get(li).docBase)) {
                throw new IllegalStateException("index document without an id");
            }
            out.put(doc, new Id(values.lookupOrd(values.ordValue()).utf8ToString()));
        }
        return out;
    }

    private static String key(Id team, Id id) {
        return team.value() + "/" + id.value();
    }

    private Document toDocument(String key, Entry e) {
        Document d = new Document();
        d.add(new StringField(F_KEY, key, Field.Store.YES));
        d.add(new SortedDocValuesField(F_ID, new BytesRef(e.key().id().value())));
        d.add(new StringField(F_TEAM, e.key().team().value(), Field.Store.NO));
        d.add(new StringField(F_SCOPE, e.scope().wire(), Field.Store.NO));
        if (e.user() != null) {
            d.add(new StringField(F_USER, e.user().value(), Field.Store.NO));
        }
        d.add(new StringField(F_TYPE, e.type().wire(), Field.Store.NO));
        for (Id tag : e.tags()) {
            d.add(new StringField(F_TAG, tag.value(), Field.Store.NO));
        }
        d.add(new TextField(F_TEXT, e.content(), Field.Store.NO));
        // the unit direction scaled to the entry's length (1 but for a memory with a context): the dot product with
        // the unit query is then its similarity, the mix of its content's and context's cosines (DocumentVector). A
        // legacy cosine field normalises it again, and ranks such a memory by the direction alone.
        d.add(new KnnFloatVectorField(F_VECTOR, DocumentVector.scaled(normalized(e.vector()), e.length()), similarity));
        d.add(new NumericDocValuesField(F_VERSION, e.key().version()));
        d.add(new StoredField("model", e.modelId()));
        return d;
    }

    /** Unit length, so the dot product used for exact re-scoring equals the cosine. */
    static float[] normalized(float[] v) {
        double sum = 0;
        for (float x : v) {
            sum += x * x;
        }
        double norm = Math.sqrt(sum);
        if (norm == 0 || Math.abs(norm - 1) < 1e-6) {
            return v;
        }
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = (float) (v[i] / norm);
        }
        return out;
    }

    /**
     * Stops like a killed process: the committer halts and the writer drops everything not yet committed, without
     * committing on the way out. The crash tests reopen the folder afterwards as a restarted process would.
     */
    void crashWithoutCommit() {
        shutDown(false);
    }

    /** The versions this process believes applied (what a late, older write is compared with). */
    Map<String, Long> appliedVersions() {
        return Map.copyOf(appliedVersions);
    }

    /** The version of every live document a search sees now, by key: what the applied versions must agree with. */
    Map<String, Long> searchableVersions() throws IOException {
        searchers.maybeRefreshBlocking();
        IndexSearcher searcher = searchers.acquire();
        try {
            return liveVersions(searcher.getIndexReader());
        } finally {
            searchers.release(searcher);
        }
    }

    /**
     * Commits pending work first (a clean shutdown leaves nothing for catch-up), after stopping the committer so no
     * commit runs on a closed writer.
     */
    @Override
    public void close() {
        shutDown(true);
    }

    /** {@code clean}: commit what is pending and close; otherwise drop it, as a crash would. */
    private void shutDown(boolean clean) {
        if (committer != null && clean) {
            committer.shutdown();
            try {
                committer.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        } else if (committer != null) {
            committer.shutdownNow();
        }
        if (clean) {
            commitPending();
        }
        synchronized (writeLock) {
            try {
                searchers.close();
                if (clean) {
                    writer.close();
                } else {
                    writer.rollback();
                }
                directory.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
