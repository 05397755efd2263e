package dev.cairn.aws;

import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.apache.hc.core5.http.HttpHost;
import org.opensearch.client.json.JsonData;
import org.opensearch.client.json.jackson.JacksonJsonpMapper;
import org.opensearch.client.opensearch.OpenSearchClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.opensearch._types.Refresh;
import org.opensearch.client.opensearch._types.VersionType;
import org.opensearch.client.opensearch._types.mapping.DynamicMapping;
import org.opensearch.client.opensearch._types.mapping.TypeMapping;
import org.opensearch.client.opensearch._types.query_dsl.BoolQuery;
import org.opensearch.client.opensearch._types.query_dsl.Query;
import org.opensearch.client.opensearch.core.BulkRequest;
import org.opensearch.client.opensearch.core.BulkResponse;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkOperation;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;
import org.opensearch.client.opensearch.core.search.Hit;
import org.opensearch.client.opensearch.indices.IndexSettingsAnalysis;
import org.opensearch.client.transport.OpenSearchTransport;
import org.opensearch.client.transport.TransportException;
import org.opensearch.client.transport.aws.AwsSdk2Transport;
import org.opensearch.client.transport.aws.AwsSdk2TransportOptions;
import org.opensearch.client.transport.httpclient5.ApacheHttpClient5TransportBuilder;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * {@link VectorIndex} on OpenSearch with the k-NN plugin: OpenSearch Serverless (VECTORSEARCH collection, SigV4 with
 * service {@code aoss}) in AWS, a plain node locally.
 *
 * <p>One index holds every team. The namespace filter (team, scope/owner, types, tags) goes inside the {@code knn}
 * query, so the engine's efficient filtering explores only admissible vectors; a post-filter would both leak ranking
 * information across tenants and starve small tenants of results. Text is matched with BM25 under the same filter.
 *
 * <p>The embedding model is pinned in the mapping's {@code _meta} when the index is created; vectors of another model
 * are refused ({@link EmbeddingModelMismatch}) instead of silently mixing two vector spaces.
 *
 * <p>Stale writes never win. With {@link DocumentIds#CUSTOM} the document id is {@code team/id} and the memory version
 * is the document's external version: OpenSearch itself refuses an older version. Serverless vector collections
 * allow no custom document ids, so {@link DocumentIds#GENERATED} indexes each version as a new document carrying
 * {@code key} and {@code version}, then deletes the older documents of that key; until the delete lands a search may
 * see two versions of one memory, and keeps only the newest.
 */
public final class OpenSearchVectorIndex implements VectorIndex, AutoCloseable {

    /** How documents are identified; see the class comment. */
    public enum DocumentIds {
        CUSTOM,
        GENERATED
    }

    /**
     * @param index          index name
     * @param engine         k-NN engine: {@code lucene} (works everywhere, the local default) or {@code faiss}
     * @param documentIds    {@code CUSTOM} for a node or a managed domain, {@code GENERATED} for Serverless
     * @param refresh        when writes become searchable: {@code true} (refresh at once, before returning; what a
     *                       small local node wants), {@code wait_for} (wait for the next scheduled refresh, up to a
     *                       second) or {@code false} (Serverless, which refuses the parameter and refreshes on its own
     *                       within seconds)
     * @param shards         primary shards, or null to leave it to the service (Serverless refuses the setting)
     * @param replicas       replicas, or null to leave it to the service
     * @param minCandidates  the kNN beam: at least this many neighbours are explored, more when k is larger
     */
    public record Settings(
            String index,
            String engine,
            DocumentIds documentIds,
            String refresh,
            Integer shards,
            Integer replicas,
            int minCandidates) {

        public Settings {
            if (!Set.of("true", "wait_for", "false").contains(refresh)) {
                throw new IllegalArgumentException("refresh must be true, wait_for or false, not " + refresh);
            }
            if (index == null || !index.matches("[a-z0-9][a-z0-9_-]{0,200}")) {
                throw new IllegalArgumentException("OpenSearch index name must be lower-case letters, digits, _ or -");
            }
            if (!Set.of("lucene", "faiss").contains(engine)) {
                throw new IllegalArgumentException("k-NN engine must be lucene or faiss, not " + engine);
            }
        }

        /** A local node: custom ids, immediate refresh, one shard, no replicas, lucene engine. */
        public static Settings localNode(String index) {
            return new Settings(index, "lucene", DocumentIds.CUSTOM, "true", 1, 0, 200);
        }
    }

    static final String F_KEY = "key";
    static final String F_TEAM = "team";
    static final String F_ID = "memory_id";
    static final String F_USER = "user";
    static final String F_SCOPE = "scope";
    static final String F_TYPE = "type";
    static final String F_TAGS = "tags";
    static final String F_TEXT = "text";
    static final String F_OCCURRED = "occurred_at";
    static final String F_VERSION = "version";
    static final String F_MODEL = "model";
    static final String F_VECTOR = "v";
    static final String META_MODEL = "cairn_model";
    static final String TEXT_ANALYZER = "cairn_text";
    private static final String STOP_FILTER = "cairn_english_stop";
    static final String META_DIMENSIONS = "dimensions";
    static final String META_SPACE = "cairn_space";

    /**
     * The vector space of new indexes: inner product on unit vectors (every vector is normalised before it is written
     * or searched), which ranks exactly as cosine does. Why not {@code cosinesimil}: on the faiss engine it exists only
     * from k-NN 2.19, and an OpenSearch Serverless vector collection maps vector fields to faiss HNSW whatever engine a
     * mapping names (AWS, "Migration Assistant for Amazon OpenSearch Service: Collection types": "knn_vector field
     * mappings are automatically converted to the Faiss HNSW engine for serverless compatibility"), while
     * {@code innerproduct} is a faiss and lucene space of every k-NN version Serverless has run (OpenSearch
     * documentation, "Methods and engines" and "Spaces"; AWS, "Working with vector search collections": "distance
     * metrics such as Euclidean distance, cosine similarity, and dot product similarity").
     */
    static final String SPACE = "innerproduct";

    /** Indexes created before {@link #SPACE} changed pinned no space; they hold raw vectors in cosinesimil. */
    static final String LEGACY_SPACE = "cosinesimil";

    /** OpenSearch caps the terms and result window; key lookups go in slices below it. */
    private static final int KEY_LOOKUP_SLICE = 500;

    private static final Duration RETRY_AFTER = Duration.ofSeconds(2);
    /** Runs the BM25 half of a search next to the kNN half; daemon threads, grown on demand, idle ones retire. */
    private static final ExecutorService SEARCHES = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "cairn-opensearch-search");
        t.setDaemon(true);
        return t;
    });

    private final OpenSearchTransport transport;
    private final OpenSearchClient client;
    private final Settings settings;
    /** Generated-id mode: the recorded ids of each memory's documents (null: found by search, see the class comment). */
    private final DocumentLedger ledger;
    /** The model pinned in the index's {@code _meta}; once seen it never changes for the life of the index. */
    private volatile String model;
    /** The index's vector space, read with the model: how a kNN score turns back into a cosine. */
    private volatile String space = SPACE;

    public OpenSearchVectorIndex(OpenSearchTransport transport, Settings settings) {
        this(transport, settings, null);
    }

    /**
     * With {@code ledger} (generated ids only), the ids of a memory's documents are recorded as they are indexed and
     * an old version is deleted by id, whatever a search can see yet; without it, old versions are found by search.
     */
    public OpenSearchVectorIndex(OpenSearchTransport transport, Settings settings, DocumentLedger ledger) {
        this.transport = transport;
        this.client = new OpenSearchClient(transport);
        this.settings = settings;
        this.ledger = settings.documentIds() == DocumentIds.GENERATED ? ledger : null;
    }

    /** A node reached over plain HTTP (the local stand-in); {@code endpoint} like {@code http://127.0.0.1:9200}. */
    public static OpenSearchVectorIndex plainHttp(URI endpoint, Settings settings) {
        return new OpenSearchVectorIndex(plainTransport(endpoint), settings);
    }

    /** The transport to a node reached over plain HTTP (Apache HttpClient 5). */
    public static OpenSearchTransport plainTransport(URI endpoint) {
        HttpHost host = new HttpHost(endpoint.getScheme(), endpoint.getHost(), endpoint.getPort());
        return ApacheHttpClient5TransportBuilder.builder(host)
                .setMapper(new JacksonJsonpMapper())
                .build();
    }

    /**
     * A Serverless collection ({@code service} {@code aoss}) or a managed domain ({@code es}): every request is
     * SigV4-signed with the given credentials.
     */
    public static OpenSearchVectorIndex signed(
            SdkHttpClient http,
            String host,
            String service,
            Region region,
            AwsCredentialsProvider credentials,
            Settings settings) {
        return new OpenSearchVectorIndex(signedTransport(http, host, service, region, credentials), settings);
    }

    public static OpenSearchTransport signedTransport(
            SdkHttpClient http, String host, String service, Region region, AwsCredentialsProvider credentials) {
        return new AwsSdk2Transport(
                http,
                host,
                service,
                region,
                AwsSdk2TransportOptions.builder()
                        .setCredentials(credentials)
                        .setMapper(new JacksonJsonpMapper())
                        .build());
    }

    // ---------------------------------------------------------------- model pinning

    @Override
    public Optional<String> modelId() {
        String pinned = model;
        if (pinned != null) {
            return Optional.of(pinned);
        }
        return guarded(this::readPinnedModel);
    }

    private Optional<String> readPinnedModel() throws IOException {
        try {
            var mappings =
                    client.indices().getMapping(g -> g.index(settings.index())).result();
            var record = mappings.get(settings.index());
            if (record == null) {
                return Optional.empty();
            }
            JsonData pinned = record.mappings().meta().get(META_MODEL);
            if (pinned == null) {
                throw new IllegalStateException("OpenSearch index " + settings.index()
                        + " exists but was not created by Cairn (no " + META_MODEL + " in its _meta)");
            }
            JsonData pinnedSpace = record.mappings().meta().get(META_SPACE);
            space = pinnedSpace == null ? LEGACY_SPACE : pinnedSpace.to(String.class);
            model = pinned.to(String.class);
            return Optional.of(model);
        } catch (OpenSearchException e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
    }

    /** Creates the index for {@code entryModel} if there is none, then insists the pinned model is that one. */
    private void ensureIndexFor(String entryModel, int dimensions) throws IOException {
        if (model == null && readPinnedModel().isEmpty()) {
            try {
                client.indices()
                        .create(c -> c.index(settings.index())
                                .settings(s -> {
                                    s.knn(true);
                                    s.analysis(textAnalysis());
                                    if (settings.shards() != null) {
                                        s.numberOfShards(String.valueOf(settings.shards()));
                                    }
                                    if (settings.replicas() != null) {
                                        s.numberOfReplicas(String.valueOf(settings.replicas()));
                                    }
                                    return s;
                                })
                                .mappings(mapping(settings.engine(), entryModel, dimensions)));
                space = SPACE;
                model = entryModel;
            } catch (OpenSearchException e) {
                // another writer created it first: fine, as long as it pinned the same model (checked below)
                if (!"resource_already_exists_exception".equals(e.error().type())) {
                    throw e;
                }
                readPinnedModel();
            }
        }
        if (!entryModel.equals(model)) {
            throw new EmbeddingModelMismatch(model, entryModel);
        }
    }

    /**
     * The text field's analyser, the embedded index's ({@code TextAnalyzers.cjkBigrams}) built from OpenSearch's
     * built-in parts, so that both backends hand the same BM25 scores to the one fusion formula: standard tokens,
     * full-width forms folded, lower-cased, runs of CJK characters as overlapping bigrams (Chinese has no spaces;
     * single characters match almost everything), English stop words dropped. {@code cjk_width} and
     * {@code cjk_bigram} come from the analysis-common module, which every OpenSearch distribution and Serverless
     * collection carries. An index created before keeps the analyser it was created with.
     */
    static IndexSettingsAnalysis textAnalysis() {
        return IndexSettingsAnalysis.of(a -> a.filter(
                        STOP_FILTER, f -> f.definition(d -> d.stop(st -> st.stopwords(List.of("_english_")))))
                .analyzer(
                        TEXT_ANALYZER,
                        an -> an.custom(c -> c.tokenizer("standard")
                                .filter(List.of("cjk_width", "lowercase", "cjk_bigram", STOP_FILTER)))));
    }

    /** The mapping of a new index; the AWS profile's ({@code faiss}) is checked literally by OpenSearchMappingTest. */
    static TypeMapping mapping(String engine, String modelId, int dimensions) {
        return TypeMapping.of(m -> m.dynamic(DynamicMapping.Strict)
                .meta(Map.of(
                        META_MODEL,
                        JsonData.of(modelId),
                        META_DIMENSIONS,
                        JsonData.of(dimensions),
                        META_SPACE,
                        JsonData.of(SPACE)))
                .properties(F_KEY, p -> p.keyword(k -> k))
                .properties(F_TEAM, p -> p.keyword(k -> k))
                .properties(F_ID, p -> p.keyword(k -> k))
                .properties(F_USER, p -> p.keyword(k -> k))
                .properties(F_SCOPE, p -> p.keyword(k -> k))
                .properties(F_TYPE, p -> p.keyword(k -> k))
                .properties(F_TAGS, p -> p.keyword(k -> k))
                .properties(F_MODEL, p -> p.keyword(k -> k))
                .properties(F_VERSION, p -> p.long_(l -> l))
                .properties(F_OCCURRED, p -> p.date(d -> d))
                .properties(F_TEXT, p -> p.text(t -> t.analyzer(TEXT_ANALYZER)))
                .properties(
                        F_VECTOR,
                        p -> p.knnVector(k -> k.dimension(dimensions)
                                .method(v -> v.name("hnsw")
                                        .engine(engine)
                                        .spaceType(SPACE)
                                        .parameters("m", JsonData.of(16))
                                        .parameters("ef_construction", JsonData.of(128))))));
    }

    // ---------------------------------------------------------------- writes

    @Override
    public void upsert(List<Entry> entries) {
        if (entries.isEmpty()) {
            return;
        }
        guarded(() -> {
            Entry first = entries.get(0);
            ensureIndexFor(first.modelId(), first.vector().length);
            for (Entry e : entries) {
                if (!model.equals(e.modelId())) {
                    throw new EmbeddingModelMismatch(model, e.modelId());
                }
            }
            if (settings.documentIds() == DocumentIds.CUSTOM) {
                upsertWithCustomIds(entries);
            } else {
                upsertWithGeneratedIds(entries);
            }
            return null;
        });
    }

    private void upsertWithCustomIds(List<Entry> entries) throws IOException {
        // the last entry of a key wins inside one batch, as it would across batches
        Map<String, Entry> latest = new LinkedHashMap<>();
        for (Entry e : entries) {
            latest.merge(
                    key(e.key().team(), e.key().id()),
                    e,
                    (a, b) -> a.key().version() >= b.key().version() ? a : b);
        }
        List<BulkOperation> ops = new ArrayList<>(latest.size());
        latest.forEach((key, e) -> ops.add(BulkOperation.of(o -> o.index(i -> i.id(key)
                .version(e.key().version())
                .versionType(VersionType.External)
                .document(document(key, e))))));
        bulk(ops);
    }

    private void upsertWithGeneratedIds(List<Entry> entries) throws IOException {
        Map<String, Entry> latest = new LinkedHashMap<>();
        for (Entry e : entries) {
            latest.merge(
                    key(e.key().team(), e.key().id()),
                    e,
                    (a, b) -> a.key().version() >= b.key().version() ? a : b);
        }
        Map<String, List<Indexed>> existing =
                known(latest.values().stream().map(Entry::key).toList());
        List<Entry> written = new ArrayList<>();
        List<BulkOperation> writes = new ArrayList<>();
        Map<String, List<Indexed>> stale = new LinkedHashMap<>();
        latest.forEach((key, e) -> {
            List<Indexed> docs = existing.getOrDefault(key, List.of());
            if (docs.stream().anyMatch(d -> d.version() >= e.key().version())) {
                return; // a newer (or the same) version is already indexed
            }
            written.add(e);
            writes.add(BulkOperation.of(o -> o.index(i -> i.document(document(key, e)))));
            stale.put(key, docs);
        });
        // new versions first, recorded as soon as the index acknowledges them, then the old ones go: a search never
        // finds the memory missing, and no document is left that nobody knows the id of
        List<BulkResponseItem> results = bulk(writes);
        if (ledger != null) {
            for (int i = 0; i < written.size(); i++) {
                BulkResponseItem r = results.get(i);
                if (r.error() == null && r.id() != null) {
                    Key k = written.get(i).key();
                    ledger.add(k.team(), k.id(), r.id(), k.version());
                }
            }
        }
        List<BulkOperation> cleanups = new ArrayList<>();
        stale.values()
                .forEach(docs ->
                        docs.forEach(d -> cleanups.add(BulkOperation.of(o -> o.delete(x -> x.id(d.documentId()))))));
        bulk(cleanups);
        forget(written.stream().map(Entry::key).toList(), stale);
    }

    /**
     * The documents known for each key: the ledger's (strongly consistent), and what a search finds (documents of a
     * writer that crashed before recording them, once the index shows them).
     */
    private Map<String, List<Indexed>> known(List<Key> keys) throws IOException {
        Map<String, List<Indexed>> out = new LinkedHashMap<>();
        if (ledger != null) {
            for (Key k : keys) {
                ledger.documents(k.team(), k.id())
                        .forEach((doc, version) -> out.computeIfAbsent(key(k.team(), k.id()), x -> new ArrayList<>())
                                .add(new Indexed(doc, version)));
            }
        }
        indexedDocuments(keys.stream().map(k -> key(k.team(), k.id())).toList())
                .forEach((key, docs) -> docs.forEach(d -> {
                    List<Indexed> held = out.computeIfAbsent(key, x -> new ArrayList<>());
                    if (held.stream().noneMatch(h -> h.documentId().equals(d.documentId()))) {
                        held.add(d);
                    }
                }));
        return out;
    }

    /** Drops deleted documents from the ledger, once the index has acknowledged their deletion. */
    private void forget(List<Key> keys, Map<String, List<Indexed>> deleted) {
        if (ledger == null) {
            return;
        }
        for (Key k : keys) {
            List<Indexed> docs = deleted.getOrDefault(key(k.team(), k.id()), List.of());
            if (!docs.isEmpty()) {
                ledger.remove(
                        k.team(), k.id(), docs.stream().map(Indexed::documentId).toList());
            }
        }
    }

    @Override
    public void delete(List<Key> keys) {
        if (keys.isEmpty()) {
            return;
        }
        guarded(() -> {
            if (model == null && readPinnedModel().isEmpty()) {
                return null; // no index, nothing to delete
            }
            Map<String, Long> latest = new LinkedHashMap<>();
            for (Key k : keys) {
                latest.merge(key(k.team(), k.id()), k.version(), Math::max);
            }
            List<BulkOperation> ops = new ArrayList<>();
            if (settings.documentIds() == DocumentIds.CUSTOM) {
                // external_gte: the removal of version n also removes version n itself (archived at n)
                latest.forEach((key, version) -> ops.add(BulkOperation.of(
                        o -> o.delete(d -> d.id(key).version(version).versionType(VersionType.ExternalGte)))));
                bulk(ops);
                return null;
            }
            Map<String, Key> byKey = new LinkedHashMap<>();
            for (Key k : keys) {
                byKey.merge(key(k.team(), k.id()), k, (a, b) -> a.version() >= b.version() ? a : b);
            }
            Map<String, List<Indexed>> existing = known(List.copyOf(byKey.values()));
            Map<String, List<Indexed>> removed = new LinkedHashMap<>();
            latest.forEach((key, version) -> existing.getOrDefault(key, List.of()).stream()
                    .filter(d -> d.version() <= version)
                    .forEach(d -> {
                        ops.add(BulkOperation.of(o -> o.delete(x -> x.id(d.documentId()))));
                        removed.computeIfAbsent(key, x -> new ArrayList<>()).add(d);
                    }));
            bulk(ops);
            forget(List.copyOf(byKey.values()), removed);
            return null;
        });
    }

    private record Indexed(String documentId, long version) {}

    /** The documents currently indexed for each key (generated-id mode), looked up in slices. */
    private Map<String, List<Indexed>> indexedDocuments(Collection<String> keys) throws IOException {
        Map<String, List<Indexed>> out = new HashMap<>();
        List<String> all = new ArrayList<>(keys);
        for (int from = 0; from < all.size(); from += KEY_LOOKUP_SLICE) {
            List<FieldValue> slice = all.subList(from, Math.min(all.size(), from + KEY_LOOKUP_SLICE)).stream()
                    .map(FieldValue::of)
                    .toList();
            @SuppressWarnings("rawtypes")
            SearchResponse<Map> found = client.search(
                    s -> s.index(settings.index())
                            .size(Math.min(10_000, slice.size() * 4))
                            .source(src -> src.filter(f -> f.includes(F_KEY, F_VERSION)))
                            .query(q -> q.bool(b ->
                                    b.filter(t -> t.terms(ts -> ts.field(F_KEY).terms(v -> v.value(slice)))))),
                    Map.class);
            for (@SuppressWarnings("rawtypes") Hit<Map> hit : found.hits().hits()) {
                String key = String.valueOf(hit.source().get(F_KEY));
                long version = ((Number) hit.source().get(F_VERSION)).longValue();
                out.computeIfAbsent(key, k -> new ArrayList<>()).add(new Indexed(hit.id(), version));
            }
        }
        return out;
    }

    /** The response items in request order (an empty list for no operations). */
    private List<BulkResponseItem> bulk(List<BulkOperation> ops) throws IOException {
        if (ops.isEmpty()) {
            return List.of();
        }
        BulkRequest.Builder request =
                new BulkRequest.Builder().index(settings.index()).operations(ops);
        switch (settings.refresh()) {
            case "true" -> request.refresh(Refresh.True);
            case "wait_for" -> request.refresh(Refresh.WaitFor);
            default -> {
                // Serverless: no refresh parameter; writes become searchable within its refresh interval
            }
        }
        BulkResponse response = client.bulk(request.build());
        if (!response.errors()) {
            return response.items();
        }
        List<String> failures = new ArrayList<>();
        boolean overloaded = false;
        for (BulkResponseItem item : response.items()) {
            if (item.error() == null) {
                continue;
            }
            String type = item.error().type();
            if ("version_conflict_engine_exception".equals(type)) {
                continue; // an equal or newer version is indexed: the stale write is rightly dropped
            }
            overloaded |= item.status() == 429 || item.status() >= 500;
            failures.add(item.id() + ": " + type + " " + item.error().reason());
        }
        if (failures.isEmpty()) {
            return response.items();
        }
        if (overloaded) {
            throw new StoreUnavailable(
                    "the vector index", RETRY_AFTER, new IllegalStateException("bulk items failed: " + failures));
        }
        throw new IllegalStateException("OpenSearch refused " + failures.size() + " of " + ops.size()
                + " index operations: " + failures.subList(0, Math.min(3, failures.size())));
    }

    private Map<String, Object> document(String key, Entry e) {
        Map<String, Object> doc = new HashMap<>();
        doc.put(F_KEY, key);
        doc.put(F_TEAM, e.key().team().value());
        doc.put(F_ID, e.key().id().value());
        if (e.user() != null) {
            doc.put(F_USER, e.user().value());
        }
        doc.put(F_SCOPE, e.scope().wire());
        doc.put(F_TYPE, e.type().wire());
        doc.put(F_TAGS, e.tags().stream().map(Id::value).toList());
        doc.put(F_TEXT, e.content());
        if (e.occurredAt() != null) {
            doc.put(F_OCCURRED, e.occurredAt().toString());
        }
        doc.put(F_VERSION, e.key().version());
        doc.put(F_MODEL, e.modelId());
        // unit length, so that the inner product of the index is the cosine (SPACE); a legacy index ignores the scale
        doc.put(F_VECTOR, normalized(e.vector()));
        return doc;
    }

    private static String key(Id team, Id id) {
        return team.value() + "/" + id.value(); // '/' is outside the id grammar, so keys never collide
    }

    // ---------------------------------------------------------------- search

    @Override
    public List<Candidate> search(Search search) {
        return guarded(() -> {
            Optional<String> pinned = model != null ? Optional.of(model) : readPinnedModel();
            if (pinned.isEmpty()) {
                return List.of(); // nothing indexed yet
            }
            if (!pinned.get().equals(search.modelId())) {
                throw new EmbeddingModelMismatch(pinned.get(), search.modelId());
            }
            Query filter = filterQuery(search.filter());
            float[] query = normalized(search.vector());
            int beam = Math.max(search.k(), settings.minCandidates());

            // kNN and BM25 go out together: the BM25 request rides on another connection while kNN runs
            boolean withText = search.text() != null && !search.text().isBlank();
            @SuppressWarnings("rawtypes")
            CompletableFuture<SearchResponse<Map>> bm25 = !withText
                    ? null
                    : CompletableFuture.supplyAsync(
                            () -> guarded(() -> client.search(
                                    s -> s.index(settings.index())
                                            .size(search.k())
                                            .source(src ->
                                                    src.filter(f -> f.includes(F_KEY, F_ID, F_VERSION, F_VECTOR)))
                                            .query(q -> q.bool(b -> b.must(m -> m.match(
                                                            t -> t.field(F_TEXT).query(FieldValue.of(search.text()))))
                                                    .filter(filter))),
                                    Map.class)),
                            SEARCHES);
            @SuppressWarnings("rawtypes")
            SearchResponse<Map> knn = client.search(
                    s -> s.index(settings.index())
                            .size(search.k())
                            .source(src -> src.filter(f -> f.includes(F_KEY, F_ID, F_VERSION)))
                            .query(q -> q.knn(
                                    k -> k.field(F_VECTOR).vector(query).k(beam).filter(filter))),
                    Map.class);
            Map<String, Found> found = new LinkedHashMap<>();
            for (@SuppressWarnings("rawtypes") Hit<Map> hit : knn.hits().hits()) {
                double cosine = cosineOfScore(space, hit.score());
                keepNewest(found, new Found(hit.source(), cosine, 0));
            }

            if (bm25 != null) {
                for (@SuppressWarnings("rawtypes")
                Hit<Map> hit : joined(bm25).hits().hits()) {
                    String key = String.valueOf(hit.source().get(F_KEY));
                    Found prior = found.get(key);
                    long version = ((Number) hit.source().get(F_VERSION)).longValue();
                    double lexical = hit.score() == null ? 0 : hit.score();
                    if (prior != null && prior.version() == version) {
                        found.put(key, new Found(prior.id(), key, version, prior.similarity(), lexical));
                    } else {
                        double cosine = cosine(query, hit.source().get(F_VECTOR));
                        keepNewest(found, new Found(hit.source(), cosine, lexical));
                    }
                }
            }
            List<Candidate> out = new ArrayList<>(found.size());
            for (Found f : found.values()) {
                out.add(new Candidate(new Id(f.id()), f.similarity(), f.lexical()));
            }
            return out;
        });
    }

    /** Waits for a parallel search, passing its own failure (already mapped by {@link #guarded}) through. */
    private static <T> T joined(CompletableFuture<T> future) {
        try {
            return future.join();
        } catch (CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    private record Found(String id, String key, long version, double similarity, double lexical) {
        @SuppressWarnings("rawtypes")
        Found(Map source, double similarity, double lexical) {
            this(
                    String.valueOf(source.get(F_ID)),
                    String.valueOf(source.get(F_KEY)),
                    ((Number) source.get(F_VERSION)).longValue(),
                    similarity,
                    lexical);
        }
    }

    /** Generated-id mode may briefly hold two versions of one memory; only the newest one counts. */
    private static void keepNewest(Map<String, Found> found, Found candidate) {
        found.merge(candidate.key(), candidate, (a, b) -> a.version() >= b.version() ? a : b);
    }

    private static Query filterQuery(Filter f) {
        BoolQuery.Builder b = new BoolQuery.Builder();
        b.filter(term(F_TEAM, f.team().value()));
        Query mine = Query.of(q -> q.bool(x -> x.filter(term(F_SCOPE, Scope.USER.wire()))
                .filter(term(F_USER, f.viewer().value()))));
        Query team = term(F_SCOPE, Scope.TEAM.wire());
        if (f.scope() == Scope.USER) {
            b.filter(mine);
        } else if (f.scope() == Scope.TEAM) {
            b.filter(team);
        } else {
            b.filter(Query.of(q -> q.bool(x -> x.should(mine).should(team).minimumShouldMatch("1"))));
        }
        if (f.types() != null && !f.types().isEmpty()) {
            b.filter(terms(F_TYPE, f.types().stream().map(MemoryType::wire).toList()));
        }
        if (f.tags() != null && !f.tags().isEmpty()) {
            b.filter(terms(F_TAGS, f.tags().stream().map(Id::value).toList()));
        }
        return Query.of(q -> q.bool(b.build()));
    }

    private static Query term(String field, String value) {
        return Query.of(q -> q.term(t -> t.field(field).value(FieldValue.of(value))));
    }

    private static Query terms(String field, List<String> values) {
        List<FieldValue> v = values.stream().map(FieldValue::of).toList();
        return Query.of(q -> q.terms(t -> t.field(field).terms(x -> x.value(v))));
    }

    /**
     * The cosine behind a kNN score (OpenSearch documentation, "Spaces"): {@code innerproduct} scores a dot product
     * {@code d} as {@code d + 1} when {@code d >= 0} and {@code 1 / (1 - d)} below, on unit vectors {@code d} is the
     * cosine; {@code cosinesimil} scores {@code (1 + cos) / 2}.
     */
    static double cosineOfScore(String space, double score) {
        if (LEGACY_SPACE.equals(space)) {
            return 2.0 * score - 1.0;
        }
        return score >= 1.0 ? score - 1.0 : 1.0 - 1.0 / score;
    }

    static float[] normalized(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        norm = Math.sqrt(norm);
        float[] out = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            out[i] = norm == 0 ? 0 : (float) (v[i] / norm);
        }
        return out;
    }

    /** Exact cosine between the (normalised) query and a stored vector as it comes back in {@code _source}. */
    private static double cosine(float[] query, Object stored) {
        if (!(stored instanceof List<?> values) || values.size() != query.length) {
            return 0;
        }
        double dot = 0;
        double norm = 0;
        for (int i = 0; i < query.length; i++) {
            double x = ((Number) values.get(i)).doubleValue();
            dot += query[i] * x;
            norm += x * x;
        }
        return norm == 0 ? 0 : dot / Math.sqrt(norm);
    }

    // ---------------------------------------------------------------- failures

    @FunctionalInterface
    private interface IoCall<T> {
        T call() throws IOException;
    }

    /**
     * Turns "OpenSearch did not answer" (connection refused or reset, timeouts, 429, 5xx) into {@link StoreUnavailable}
     * (503 with Retry-After at the API). Writes need no retry loop here: a record whose index write failed stays
     * pending in the record store and the indexer (stream handler or poller) retries it.
     */
    private <T> T guarded(IoCall<T> call) {
        try {
            return call.call();
        } catch (OpenSearchException e) {
            if (e.status() == 429 || e.status() >= 500) {
                throw new StoreUnavailable("the vector index", RETRY_AFTER, e);
            }
            throw e;
        } catch (TransportException e) {
            throw new StoreUnavailable("the vector index", RETRY_AFTER, e);
        } catch (IOException e) {
            throw new StoreUnavailable("the vector index", RETRY_AFTER, e);
        }
    }

    /** Drops the whole index (tests and re-index after a model change). */
    public void dropIndex() {
        guarded(() -> {
            try {
                client.indices().delete(d -> d.index(settings.index()));
            } catch (OpenSearchException e) {
                if (e.status() != 404) {
                    throw e;
                }
            }
            model = null;
            return null;
        });
    }

    @Override
    public void close() {
        try {
            transport.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
