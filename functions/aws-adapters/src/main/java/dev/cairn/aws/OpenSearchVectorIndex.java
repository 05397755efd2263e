package dev.cairn.aws;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.index.DocumentVector;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex;
import java.io.ByteArrayOutputStream;
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
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.regions.Region;

/**
 * {@link VectorIndex} on OpenSearch with the k-NN plugin: OpenSearch Serverless (VECTORSEARCH collection, SigV4 with
 * service {@code aoss}) in AWS, a plain node locally. The requests are JSON trees sent through {@link OpenSearchHttp}.
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

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final OpenSearchHttp http;
    private final Settings settings;
    /** Generated-id mode: the recorded ids of each memory's documents (null: found by search, see the class comment). */
    private final DocumentLedger ledger;
    /** The model pinned in the index's {@code _meta}; once seen it never changes for the life of the index. */
    private volatile String model;
    /** The index's vector space, read with the model: how a kNN score turns back into a cosine. */
    private volatile String space = SPACE;

    public OpenSearchVectorIndex(OpenSearchHttp http, Settings settings) {
        this(http, settings, null);
    }

    /**
     * With {@code ledger} (generated ids only), the ids of a memory's documents are recorded as they are indexed and
     * an old version is deleted by id, whatever a search can see yet; without it, old versions are found by search.
     */
    public OpenSearchVectorIndex(OpenSearchHttp http, Settings settings, DocumentLedger ledger) {
        this.http = http;
        this.settings = settings;
        this.ledger = settings.documentIds() == DocumentIds.GENERATED ? ledger : null;
    }

    /** A node reached over plain HTTP (the local stand-in); {@code endpoint} like {@code http://127.0.0.1:9200}. */
    public static OpenSearchVectorIndex plainHttp(URI endpoint, Settings settings) {
        return new OpenSearchVectorIndex(plainTransport(endpoint), settings);
    }

    /** The transport to a node reached over plain HTTP, with an HTTP client of its own. */
    public static OpenSearchHttp plainTransport(URI endpoint) {
        return OpenSearchHttp.plain(endpoint);
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
        return new OpenSearchVectorIndex(OpenSearchHttp.signed(http, host, service, region, credentials), settings);
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
        JsonNode mappings;
        try {
            mappings = http.send(SdkHttpMethod.GET, "/" + settings.index() + "/_mapping", null, null);
        } catch (OpenSearchHttp.Failure e) {
            if (e.status() == 404) {
                return Optional.empty();
            }
            throw e;
        }
        JsonNode record = mappings.get(settings.index());
        if (record == null) {
            return Optional.empty();
        }
        JsonNode meta = record.path("mappings").path("_meta");
        JsonNode pinned = meta.get(META_MODEL);
        if (pinned == null) {
            throw new IllegalStateException("OpenSearch index " + settings.index()
                    + " exists but was not created by Cairn (no " + META_MODEL + " in its _meta)");
        }
        JsonNode pinnedSpace = meta.get(META_SPACE);
        space = pinnedSpace == null ? LEGACY_SPACE : pinnedSpace.asText();
        model = pinned.asText();
        return Optional.of(model);
    }

    /** Creates the index for {@code entryModel} if there is none, then insists the pinned model is that one. */
    private void ensureIndexFor(String entryModel, int dimensions) throws IOException {
        if (model == null && readPinnedModel().isEmpty()) {
            ObjectNode create = NODES.objectNode();
            create.set("mappings", mapping(settings.engine(), entryModel, dimensions));
            ObjectNode indexSettings = create.putObject("settings");
            if (settings.shards() != null) {
                indexSettings.put("number_of_shards", String.valueOf(settings.shards()));
            }
            if (settings.replicas() != null) {
                indexSettings.put("number_of_replicas", String.valueOf(settings.replicas()));
            }
            indexSettings.set("analysis", textAnalysis());
            indexSettings.put("knn", true);
            try {
                http.send(SdkHttpMethod.PUT, "/" + settings.index(), null, bytes(create));
                space = SPACE;
                model = entryModel;
            } catch (OpenSearchHttp.Failure e) {
                // another writer created it first: fine, as long as it pinned the same model (checked below)
                if (!"resource_already_exists_exception".equals(e.type())) {
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
    static ObjectNode textAnalysis() {
        ObjectNode analysis = NODES.objectNode();
        ObjectNode stop = analysis.putObject("filter").putObject(STOP_FILTER);
        stop.put("type", "stop");
        stop.putArray("stopwords").add("_english_");
        ObjectNode analyzer = analysis.putObject("analyzer").putObject(TEXT_ANALYZER);
        analyzer.put("type", "custom").put("tokenizer", "standard");
        analyzer.putArray("filter")
                .add("cjk_width")
                .add("lowercase")
                .add("cjk_bigram")
                .add(STOP_FILTER);
        return analysis;
    }

    /** The mapping of a new index; the AWS profile's ({@code faiss}) is checked literally by OpenSearchMappingTest. */
    static ObjectNode mapping(String engine, String modelId, int dimensions) {
        ObjectNode m = NODES.objectNode();
        m.put("dynamic", "strict");
        ObjectNode meta = m.putObject("_meta");
        meta.put(META_MODEL, modelId);
        meta.put(META_DIMENSIONS, dimensions);
        meta.put(META_SPACE, SPACE);
        ObjectNode properties = m.putObject("properties");
        for (String keyword : List.of(F_KEY, F_TEAM, F_ID, F_USER, F_SCOPE, F_TYPE, F_TAGS, F_MODEL)) {
            properties.putObject(keyword).put("type", "keyword");
        }
        properties.putObject(F_VERSION).put("type", "long");
        properties.putObject(F_OCCURRED).put("type", "date");
        properties.putObject(F_TEXT).put("type", "text").put("analyzer", TEXT_ANALYZER);
        ObjectNode vector = properties.putObject(F_VECTOR);
        vector.put("type", "knn_vector").put("dimension", dimensions);
        ObjectNode method = vector.putObject("method");
        method.put("name", "hnsw").put("engine", engine).put("space_type", SPACE);
        method.putObject("parameters").put("m", 16).put("ef_construction", 128);
        return m;
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
        List<BulkOp> ops = new ArrayList<>(latest.size());
        latest.forEach((key, e) -> ops.add(BulkOp.index(key, e.key().version(), "external", document(key, e))));
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
        List<BulkOp> writes = new ArrayList<>();
        Map<String, List<Indexed>> stale = new LinkedHashMap<>();
        latest.forEach((key, e) -> {
            List<Indexed> docs = existing.getOrDefault(key, List.of());
            if (docs.stream().anyMatch(d -> d.version() >= e.key().version())) {
                return; // a newer (or the same) version is already indexed
            }
            written.add(e);
            writes.add(BulkOp.index(null, null, null, document(key, e)));
            stale.put(key, docs);
        });
        // new versions first, recorded as soon as the index acknowledges them, then the old ones go: a search never
        // finds the memory missing, and no document is left that nobody knows the id of
        List<BulkItem> results = bulk(writes);
        if (ledger != null) {
            for (int i = 0; i < written.size(); i++) {
                BulkItem r = results.get(i);
                if (r.errorType() == null && r.id() != null) {
                    Key k = written.get(i).key();
                    ledger.add(k.team(), k.id(), r.id(), k.version());
                }
            }
        }
        List<BulkOp> cleanups = new ArrayList<>();
        stale.values().forEach(docs -> docs.forEach(d -> cleanups.add(BulkOp.delete(d.documentId(), null, null))));
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
            List<BulkOp> ops = new ArrayList<>();
            if (settings.documentIds() == DocumentIds.CUSTOM) {
                // external_gte: the removal of version n also removes version n itself (archived at n)
                latest.forEach((key, version) -> ops.add(BulkOp.delete(key, version, "external_gte")));
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
                        ops.add(BulkOp.delete(d.documentId(), null, null));
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
            List<String> slice = all.subList(from, Math.min(all.size(), from + KEY_LOOKUP_SLICE));
            ObjectNode terms = NODES.objectNode();
            terms.putObject("terms").set(F_KEY, strings(slice));
            ObjectNode query = NODES.objectNode();
            query.putObject("bool").putArray("filter").add(terms);
            JsonNode found = search(searchBody(List.of(F_KEY, F_VERSION), query, Math.min(10_000, slice.size() * 4)));
            for (JsonNode hit : found.path("hits").path("hits")) {
                JsonNode source = hit.path("_source");
                String key = source.path(F_KEY).asText();
                long version = source.path(F_VERSION).asLong();
                out.computeIfAbsent(key, k -> new ArrayList<>())
                        .add(new Indexed(hit.path("_id").asText(), version));
            }
        }
        return out;
    }

    /**
     * One operation of a bulk request: an {@code index} (with its document) or a {@code delete}; {@code id},
     * {@code version} and {@code versionType} only when given (generated-id mode indexes without an id).
     */
    private record BulkOp(String action, String id, Long version, String versionType, Map<String, Object> document) {
        static BulkOp index(String id, Long version, String versionType, Map<String, Object> document) {
            return new BulkOp("index", id, version, versionType, document);
        }

        static BulkOp delete(String id, Long version, String versionType) {
            return new BulkOp("delete", id, version, versionType, null);
        }

        void writeTo(ByteArrayOutputStream out) throws JsonProcessingException {
            ObjectNode line = NODES.objectNode();
            ObjectNode meta = line.putObject(action);
            if (id != null) {
                meta.put("_id", id);
            }
            if (version != null) {
                meta.put("version", version);
                meta.put("version_type", versionType);
            }
            out.writeBytes(JSON.writeValueAsBytes(line));
            out.write('\n');
            if (document != null) {
                out.writeBytes(JSON.writeValueAsBytes(document));
                out.write('\n');
            }
        }
    }

    /** One item of a bulk answer; {@code errorType} null when it succeeded. */
    private record BulkItem(String id, int status, String errorType, String errorReason) {
        static BulkItem of(JsonNode item) {
            JsonNode result = item.elements().hasNext() ? item.elements().next() : item;
            JsonNode error = result.get("error");
            return new BulkItem(
                    result.hasNonNull("_id") ? result.get("_id").asText() : null,
                    result.path("status").asInt(),
                    error == null ? null : error.path("type").asText(),
                    error == null ? null : error.path("reason").asText(null));
        }
    }

    /** The response items in request order (an empty list for no operations). */
    private List<BulkItem> bulk(List<BulkOp> ops) throws IOException {
        if (ops.isEmpty()) {
            return List.of();
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (BulkOp op : ops) {
            op.writeTo(body);
        }
        // Serverless: no refresh parameter; writes become searchable within its refresh interval
        String refresh = settings.refresh().equals("false") ? null : "refresh=" + settings.refresh();
        JsonNode response =
                http.send(SdkHttpMethod.POST, "/" + settings.index() + "/_bulk", refresh, body.toByteArray());
        List<BulkItem> items = new ArrayList<>(ops.size());
        response.path("items").forEach(item -> items.add(BulkItem.of(item)));
        if (!response.path("errors").asBoolean()) {
            return items;
        }
        List<String> failures = new ArrayList<>();
        boolean overloaded = false;
        for (BulkItem item : items) {
            if (item.errorType() == null) {
                continue;
            }
            String type = item.errorType();
            if ("version_conflict_engine_exception".equals(type)) {
                continue; // an equal or newer version is indexed: the stale write is rightly dropped
            }
            overloaded |= item.status() == 429 || item.status() >= 500;
            failures.add(item.id() + ": " + type + " " + item.errorReason());
        }
        if (failures.isEmpty()) {
            return items;
        }
        if (overloaded) {
            throw new StoreUnavailable(
                    "the vector index", RETRY_AFTER, new IllegalStateException("bulk items failed: " + failures));
        }
        throw new IllegalStateException("OpenSearch refused " + failures.size() + " of " + ops.size()
                + " index operations: " + failures.subList(0, Math.min(3, failures.size())));
    }

    /** A search request's body: the {@code _source} fields wanted, the query and the number of hits. */
    private static ObjectNode searchBody(List<String> fields, ObjectNode query, int size) {
        ObjectNode body = NODES.objectNode();
        body.putObject("_source").set("includes", strings(fields));
        body.set("query", query);
        body.put("size", size);
        return body;
    }

    /** {@code typed_keys} as opensearch-java sent it (it names aggregations by type; none are asked for). */
    private JsonNode search(ObjectNode body) throws IOException {
        return http.send(SdkHttpMethod.POST, "/" + settings.index() + "/_search", "typed_keys=true", bytes(body));
    }

    private static byte[] bytes(JsonNode json) throws JsonProcessingException {
        return JSON.writeValueAsBytes(json);
    }

    private static ArrayNode strings(Collection<String> values) {
        ArrayNode out = NODES.arrayNode(values.size());
        values.forEach(out::add);
        return out;
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
        // unit length scaled to the entry's length (1 but for a memory with a context), so that the inner product of
        // the index is the cosine times that length (SPACE, DocumentVector); a legacy index ignores the scale
        doc.put(F_VECTOR, DocumentVector.scaled(normalized(e.vector()), e.length()));
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
            ObjectNode filter = filterQuery(search.filter());
            float[] query = normalized(search.vector());
            int beam = Math.max(search.k(), settings.minCandidates());

            // kNN and BM25 go out together: the BM25 request rides on another connection while kNN runs
            boolean withText = search.text() != null && !search.text().isBlank();
            CompletableFuture<JsonNode> bm25 = null;
            if (withText) {
                ObjectNode match = NODES.objectNode();
                match.putObject("match").putObject(F_TEXT).put("query", search.text());
                ObjectNode bool = NODES.objectNode();
                ObjectNode b = bool.putObject("bool");
                b.putArray("filter").add(filter);
                b.putArray("must").add(match);
                ObjectNode body = searchBody(List.of(F_KEY, F_ID, F_VERSION, F_VECTOR), bool, search.k());
                bm25 = CompletableFuture.supplyAsync(() -> guarded(() -> search(body)), SEARCHES);
            }
            ObjectNode knnQuery = NODES.objectNode();
            ObjectNode knnField = knnQuery.putObject("knn").putObject(F_VECTOR);
            ArrayNode vector = knnField.putArray("vector");
            for (float x : query) {
                vector.add((double) x); // as opensearch-java wrote a float[] query vector: each as a double
            }
            knnField.put("k", beam);
            knnField.set("filter", filter);
            JsonNode knn = search(searchBody(List.of(F_KEY, F_ID, F_VERSION), knnQuery, search.k()));
            Map<String, Found> found = new LinkedHashMap<>();
            for (JsonNode hit : knn.path("hits").path("hits")) {
                double cosine = cosineOfScore(space, hit.path("_score").asDouble());
                keepNewest(found, new Found(hit.path("_source"), cosine, 0));
            }

            if (bm25 != null) {
                for (JsonNode hit : joined(bm25).path("hits").path("hits")) {
                    JsonNode source = hit.path("_source");
                    String key = source.path(F_KEY).asText();
                    Found prior = found.get(key);
                    long version = source.path(F_VERSION).asLong();
                    double lexical = hit.path("_score").asDouble(0);
                    if (prior != null && prior.version() == version) {
                        found.put(key, new Found(prior.id(), key, version, prior.similarity(), lexical));
                    } else {
                        double cosine = cosine(query, source.get(F_VECTOR));
                        keepNewest(found, new Found(source, cosine, lexical));
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
        Found(JsonNode source, double similarity, double lexical) {
            this(
                    source.path(F_ID).asText(),
                    source.path(F_KEY).asText(),
                    source.path(F_VERSION).asLong(),
                    similarity,
                    lexical);
        }
    }

    /** Generated-id mode may briefly hold two versions of one memory; only the newest one counts. */
    private static void keepNewest(Map<String, Found> found, Found candidate) {
        found.merge(candidate.key(), candidate, (a, b) -> a.version() >= b.version() ? a : b);
    }

    private static ObjectNode filterQuery(Filter f) {
        ArrayNode all = NODES.arrayNode();
        all.add(term(F_TEAM, f.team().value()));
        ObjectNode mine = bool(
                "filter",
                term(F_SCOPE, Scope.USER.wire()),
                term(F_USER, f.viewer().value()));
        ObjectNode team = term(F_SCOPE, Scope.TEAM.wire());
        if (f.scope() == Scope.USER) {
            all.add(mine);
        } else if (f.scope() == Scope.TEAM) {
            all.add(team);
        } else {
            ObjectNode either = bool("should", mine, team);
            ((ObjectNode) either.get("bool")).put("minimum_should_match", "1");
            all.add(either);
        }
        if (f.types() != null && !f.types().isEmpty()) {
            all.add(terms(F_TYPE, f.types().stream().map(MemoryType::wire).toList()));
        }
        if (f.tags() != null && !f.tags().isEmpty()) {
            all.add(terms(F_TAGS, f.tags().stream().map(Id::value).toList()));
        }
        ObjectNode out = NODES.objectNode();
        out.putObject("bool").set("filter", all);
        return out;
    }

    /** {@code {"bool": {occurrence: [clauses]}}}. */
    private static ObjectNode bool(String occurrence, ObjectNode... clauses) {
        ObjectNode out = NODES.objectNode();
        ArrayNode list = out.putObject("bool").putArray(occurrence);
        for (ObjectNode c : clauses) {
            list.add(c);
        }
        return out;
    }

    private static ObjectNode term(String field, String value) {
        ObjectNode out = NODES.objectNode();
        out.putObject("term").putObject(field).put("value", value);
        return out;
    }

    private static ObjectNode terms(String field, List<String> values) {
        ObjectNode out = NODES.objectNode();
        out.putObject("terms").set(field, strings(values));
        return out;
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

    /**
     * What the kNN score of a stored vector as it comes back in {@code _source} would be, turned back into a similarity
     * ({@link #cosineOfScore}): the dot product with the (normalised) query in the inner-product space, whose vectors
     * were written scaled to their entry's length; the cosine in a legacy index, which holds raw vectors.
     */
    private double cosine(float[] query, JsonNode stored) {
        if (stored == null || !stored.isArray() || stored.size() != query.length) {
            return 0;
        }
        double dot = 0;
        double norm = 0;
        for (int i = 0; i < query.length; i++) {
            double x = stored.get(i).asDouble();
            dot += query[i] * x;
            norm += x * x;
        }
        if (!LEGACY_SPACE.equals(space)) {
            return dot;
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
        } catch (OpenSearchHttp.Failure e) {
            if (e.status() == 429 || e.status() >= 500) {
                throw new StoreUnavailable("the vector index", RETRY_AFTER, e);
            }
            throw e;
        } catch (IOException | UncheckedIOException e) {
            throw new StoreUnavailable("the vector index", RETRY_AFTER, e);
        }
    }

    /** Drops the whole index (tests and re-index after a model change). */
    public void dropIndex() {
        guarded(() -> {
            try {
                http.send(SdkHttpMethod.DELETE, "/" + settings.index(), null, null);
            } catch (OpenSearchHttp.Failure e) {
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
        http.close();
    }
}
