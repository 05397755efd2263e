package dev.cairn.aws;

import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.ListQuery;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Page;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.MemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.core.retry.backoff.FixedDelayBackoffStrategy;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchGetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.GlobalSecondaryIndex;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.dynamodb.model.KeyType;
import software.amazon.awssdk.services.dynamodb.model.KeysAndAttributes;
import software.amazon.awssdk.services.dynamodb.model.Projection;
import software.amazon.awssdk.services.dynamodb.model.ProjectionType;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.ResourceInUseException;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;
import software.amazon.awssdk.services.dynamodb.waiters.DynamoDbWaiter;

/**
 * {@link MemoryStore} on one DynamoDB table (single-table design; see this module's README for the key schema).
 *
 * <p>Every change is a single-item conditional write — {@code attribute_not_exists(pk)} to create,
 * {@code version = :expected} to change — because the local stand-in (dynalite) has no TransactWriteItems and none is
 * needed: a memory is one item. Reads that decide (get before patch, hydrate for recall) are strongly consistent.
 */
public final class DynamoDbMemoryStore implements MemoryStore {

    static final String PK = "pk";
    static final String SK = "sk";
    static final String IMPORTANCE_INDEX = "by_importance";
    static final String RECENCY_INDEX = "by_recency";
    static final String PENDING_INDEX = "pending_index";
    private static final String MEMORY_PREFIX = "M#";
    private static final String TEAMS_PARTITION = "#teams";
    private static final String JOBS_PARTITION = "#jobs";
    /**
     * The pending index's partition key was one constant ({@code "all"}): every memory write (and its indexed mark)
     * went to one GSI partition, a throughput ceiling for the whole table (about 1,000 writes/s per partition). It is
     * now one of {@link #PENDING_SHARDS} values by a hash of the memory's key; {@code pendingIndex} reads every shard,
     * and the legacy value for items written before.
     */
    static final int PENDING_SHARDS = 16;

    private final java.util.concurrent.atomic.AtomicInteger pendingTurn =
            new java.util.concurrent.atomic.AtomicInteger();

    private static final String PENDING_LEGACY = "all";

    /** The pending index's partition of one memory: {@code p0} … {@code p15}, spread by its team and id. */
    static String pendingShard(Id team, Id id) {
        return "p" + Math.floorMod((team.value() + "/" + id.value()).hashCode(), PENDING_SHARDS);
    }

    /** Every partition a pending item may be in, the legacy one first (what the previous layout wrote). */
    static List<String> pendingPartitions() {
        List<String> all = new ArrayList<>(PENDING_SHARDS + 1);
        all.add(PENDING_LEGACY);
        for (int i = 0; i < PENDING_SHARDS; i++) {
            all.add("p" + i);
        }
        return all;
    }

    private final DynamoDbClient dynamo;
    private final String table;
    private final java.util.Set<String> registered = java.util.concurrent.ConcurrentHashMap.newKeySet();

    public DynamoDbMemoryStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    /** See {@link DynamoCalls#guarded}. */
    private <T> T guarded(java.util.function.Supplier<T> operation) {
        return DynamoCalls.guarded(operation);
    }

    private void guardedRun(Runnable operation) {
        guarded(() -> {
            operation.run();
            return null;
        });
    }

    /**
     * The table every DynamoDB store of this module reads and writes: keys, attribute types and indexes. The CDK stack
     * declares the same table for AWS; {@code TableDefinitionCrossCheckTest} (integration-tests) holds the two
     * together. It carries no stream: local runs poll for index work, and in AWS the stack adds a
     * {@link DynamoDbStreamIndexing#STREAM_VIEW_TYPE} stream.
     */
    public static CreateTableRequest tableDefinition(String table) {
        return CreateTableRequest.builder()
                .tableName(table)
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .attributeDefinitions(
                        attr(PK, ScalarAttributeType.S),
                        attr(SK, ScalarAttributeType.S),
                        attr("imp_key", ScalarAttributeType.S),
                        attr("rec_key", ScalarAttributeType.S),
                        attr("pending", ScalarAttributeType.S))
                .keySchema(key(PK, KeyType.HASH), key(SK, KeyType.RANGE))
                .globalSecondaryIndexes(
                        listing(IMPORTANCE_INDEX, "imp_key"),
                        listing(RECENCY_INDEX, "rec_key"),
                        GlobalSecondaryIndex.builder()
                                .indexName(PENDING_INDEX)
                                .keySchema(key("pending", KeyType.HASH), key(SK, KeyType.RANGE))
                                .projection(Projection.builder()
                                        .projectionType(ProjectionType.KEYS_ONLY)
                                        .build())
                                .build())
                .build();
    }

    /**
     * A listing order of a team's memories: a global secondary index on the memories' partition key and the order's
     * sort key. It was a local index; a local index caps the team's partition (item collection) at 10 GB for good and
     * cannot be removed later, a global one has no size ceiling. Its price: it is read eventually consistently (a
     * listing may miss a write of the last few hundred milliseconds; get and recall read the table itself).
     * Projection ALL: the listing's filter (scope, owner, type, tags) and its rows need every attribute.
     */
    private static GlobalSecondaryIndex listing(String name, String sortKey) {
        return GlobalSecondaryIndex.builder()
                .indexName(name)
                .keySchema(key(PK, KeyType.HASH), key(sortKey, KeyType.RANGE))
                .projection(
                        Projection.builder().projectionType(ProjectionType.ALL).build())
                .build();
    }

    /** Creates the table with its indexes if it does not exist (local runs and tests; CDK owns it in AWS). */
    public void createTableIfMissing() {
        try {
            dynamo.createTable(tableDefinition(table));
            // the default waiter polls every 20 s; a new table is usually active within a second
            try (DynamoDbWaiter waiter = DynamoDbWaiter.builder()
                    .client(dynamo)
                    .overrideConfiguration(
                            o -> o.backoffStrategy(FixedDelayBackoffStrategy.create(Duration.ofMillis(200)))
                                    .maxAttempts(300))
                    .build()) {
                waiter.waitUntilTableExists(b -> b.tableName(table));
            }
        } catch (ResourceInUseException e) {
            // already there
        }
    }

    private static AttributeDefinition attr(String name, ScalarAttributeType type) {
        return AttributeDefinition.builder()
                .attributeName(name)
                .attributeType(type)
                .build();
    }

    private static KeySchemaElement key(String name, KeyType type) {
        return KeySchemaElement.builder().attributeName(name).keyType(type).build();
    }

    static String partition(Id team) {
        return "T#" + team.value();
    }

    static String sortKey(Id id) {
        return MEMORY_PREFIX + id.value();
    }

    /**
     * One memory is one conditional put. Several are not atomic here (DynamoDB's transactions are missing from the
     * local stand-in, and the API's batch is per item anyway): each is written on its own, and the first failure is
     * thrown after the others were tried — nothing written is undone, which could itself fail half way and leave part
     * of the batch written while saying it failed.
     */
    @Override
    public void insertAll(List<Memory> memories) {
        Map<Id, CairnException> failed = insertEach(memories);
        if (!failed.isEmpty()) {
            throw failed.values().iterator().next();
        }
    }

    /** Each memory its own {@code attribute_not_exists(pk)} put; each failure is reported for its memory only. */
    @Override
    public Map<Id, CairnException> insertEach(List<Memory> memories) {
        guardedRun(() -> registerTeams(memories));
        Map<Id, CairnException> failed = new LinkedHashMap<>();
        for (Memory m : memories) {
            try {
                guardedRun(() -> dynamo.putItem(
                        b -> b.tableName(table).item(toItem(m, 0)).conditionExpression("attribute_not_exists(pk)")));
            } catch (ConditionalCheckFailedException e) {
                failed.put(m.id(), new VersionConflict("memory " + m.id(), 0, 1));
            } catch (StoreUnavailable e) {
                failed.put(m.id(), e);
            }
        }
        return failed;
    }

    /**
     * The team registry the scheduled decay run walks ({@link #teams}): one item per team under a partition no team
     * key can take ({@code #teams}; team partitions are {@code T#…}). Written before the memories, so a stored memory
     * always has its team listed; remembered per instance, so it costs one write per team per container, not per
     * memory. Listing teams by scanning the table instead would read every item of every team.
     */
    private void registerTeams(List<Memory> memories) {
        for (Memory m : memories) {
            if (registered.add(m.team().value())) {
                try {
                    dynamo.putItem(b -> b.tableName(table)
                            .item(Map.of(
                                    PK, str(TEAMS_PARTITION), SK, str(m.team().value()))));
                } catch (RuntimeException e) {
                    registered.remove(m.team().value());
                    throw e;
                }
            }
        }
    }

    @Override
    public List<Id> teams(Id after, int limit) {
        return guarded(() -> {
            Map<String, AttributeValue> values = new HashMap<>();
            values.put(":pk", str(TEAMS_PARTITION));
            values.put(":after", str(after == null ? "" : after.value()));
            var r = dynamo.query(b -> b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :pk AND sk > :after")
                    .expressionAttributeValues(values)
                    .limit(limit));
            return r.items().stream().map(i -> new Id(i.get(SK).s())).toList();
        });
    }

    @Override
    public Optional<String> decayCursor() {
        return guarded(() -> {
            var r = dynamo.getItem(b ->
                    b.tableName(table).consistentRead(true).key(Map.of(PK, str(JOBS_PARTITION), SK, str("decay"))));
            return r.hasItem() && r.item().containsKey("cursor")
                    ? Optional.of(r.item().get("cursor").s())
                    : Optional.empty();
        });
    }

    @Override
    public void saveDecayCursor(String cursor) {
        guardedRun(() -> {
            Map<String, AttributeValue> key = Map.of(PK, str(JOBS_PARTITION), SK, str("decay"));
            if (cursor == null) {
                dynamo.deleteItem(b -> b.tableName(table).key(key));
            } else {
                dynamo.putItem(
                        b -> b.tableName(table).item(Map.of(PK, key.get(PK), SK, key.get(SK), "cursor", str(cursor))));
            }
        });
    }

    @Override
    public Optional<Memory> get(Id team, Id id) {
        return guarded(() -> {
            Map<String, AttributeValue> item = dynamo.getItem(
                            b -> b.tableName(table).key(keyOf(team, id)).consistentRead(true))
                    .item();
            if (item == null || item.isEmpty() || isDeleted(item)) {
                return Optional.empty();
            }
            return Optional.of(fromItem(item));
        });
    }

    @Override
    public List<Memory> getAll(Id team, Collection<Id> ids) {
        return guarded(() -> {
            List<Memory> out = new ArrayList<>(ids.size());
            List<Id> all = List.copyOf(ids);
            for (int from = 0; from < all.size(); from += 100) { // BatchGetItem takes at most 100 keys
                List<Map<String, AttributeValue>> keys = new ArrayList<>();
                for (Id id : all.subList(from, Math.min(all.size(), from + 100))) {
                    keys.add(keyOf(team, id));
                }
                Map<String, KeysAndAttributes> request = Map.of(
                        table,
                        KeysAndAttributes.builder()
                                .keys(keys)
                                .consistentRead(true)
                                .build());
                while (!request.isEmpty()) {
                    Map<String, KeysAndAttributes> req = request;
                    BatchGetItemResponse r = dynamo.batchGetItem(b -> b.requestItems(req));
                    for (Map<String, AttributeValue> item : r.responses().getOrDefault(table, List.of())) {
                        if (!isDeleted(item)) {
                            out.add(fromItem(item));
                        }
                    }
                    request = r.unprocessedKeys() == null ? Map.of() : r.unprocessedKeys();
                }
            }
            return out;
        });
    }

    /** An update rather than a put: the index bookkeeping on the item is the store's, not the caller's. */
    @Override
    public void replace(Memory updated) {
        guardedRun(() -> {
            long expected = updated.version() - 1;
            Map<String, AttributeValue> values = new HashMap<>();
            values.put(":type", str(updated.type().wire()));
            values.put(":content", str(updated.content()));
            values.put(":tags", list(updated.tags()));
            values.put(":imp", num(updated.importance()));
            values.put(
                    ":ik", str(importanceKey(updated.importance(), updated.id().value())));
            values.put(":conf", num(updated.confidence()));
            values.put(":ev", list(updated.evidence()));
            values.put(":v", num(updated.version()));
            values.put(":state", str(updated.state().wire()));
            values.put(":p", str(pendingShard(updated.team(), updated.id())));
            values.put(":expected", num(expected));
            values.put(":false", bool(false));
            String update = "SET #type = :type, content = :content, tags = :tags, importance = :imp, imp_key = :ik, "
                    + "confidence = :conf, evidence = :ev, version = :v, #state = :state, pending = :p";
            List<String> removed = new ArrayList<>();
            if (updated.occurredAt() != null) {
                update += ", occurred_at = :occurred";
                values.put(":occurred", num(updated.occurredAt().toEpochMilli()));
            } else {
                removed.add("occurred_at");
            }
            if (updated.supersededBy() != null) {
                update += ", superseded_by = :sup, valid_to = :vto";
                values.put(":sup", str(updated.supersededBy().value()));
                values.put(":vto", num(updated.validTo().toEpochMilli()));
            } else {
                removed.add("superseded_by");
                removed.add("valid_to");
            }
            if (updated.context() != null) {
                update += ", #ctx = :ctx";
                values.put(":ctx", str(updated.context()));
            } else {
                removed.add("#ctx");
            }
            String expression = removed.isEmpty() ? update : update + " REMOVE " + String.join(", ", removed);
            try {
                dynamo.updateItem(b -> b.tableName(table)
                        .key(keyOf(updated.team(), updated.id()))
                        .updateExpression(expression)
                        .conditionExpression("version = :expected AND deleted = :false")
                        .expressionAttributeNames(Map.of("#type", "type", "#state", "state", "#ctx", "context"))
                        .expressionAttributeValues(values));
            } catch (ConditionalCheckFailedException e) {
                throw conflict(updated.team(), updated.id(), expected);
            }
        });
    }

    @Override
    public void delete(Id team, Id id, long expectedVersion) {
        guardedRun(() -> {
            try {
                dynamo.updateItem(b -> b.tableName(table)
                        .key(keyOf(team, id))
                        .updateExpression(
                                "SET deleted = :true, version = :next, content = :empty, pending = :p REMOVE #ctx")
                        .expressionAttributeNames(Map.of("#ctx", "context"))
                        .conditionExpression("version = :expected AND deleted = :false")
                        .expressionAttributeValues(Map.of(
                                ":true",
                                bool(true),
                                ":false",
                                bool(false),
                                ":next",
                                num(expectedVersion + 1),
                                ":expected",
                                num(expectedVersion),
                                ":empty",
                                str(""),
                                ":p",
                                str(pendingShard(team, id)))));
            } catch (ConditionalCheckFailedException e) {
                throw conflict(team, id, expectedVersion);
            }
        });
    }

    private RuntimeException conflict(Id team, Id id, long expected) {
        Map<String, AttributeValue> item = dynamo.getItem(
                        b -> b.tableName(table).key(keyOf(team, id)).consistentRead(true))
                .item();
        if (item == null || item.isEmpty() || isDeleted(item)) {
            return new NotFound("memory " + id + " in team " + team);
        }
        return new VersionConflict(
                "memory " + id, expected, Long.parseLong(item.get("version").n()));
    }

    /**
     * Recency and importance orders are the global indexes on {@code rec_key} and {@code imp_key}, read backwards. Visibility (the viewer's own user memories and the
     * team's) is a filter inside the query, so pages are filled by reading on until the limit is reached.
     */
    @Override
    public List<Memory> scan(Id team, Id after, int limit) {
        return guarded(() -> {
            List<Memory> out = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> from = start;
                Map<String, AttributeValue> values = new HashMap<>();
                values.put(":pk", str(partition(team)));
                values.put(":false", bool(false));
                String condition;
                if (after == null) {
                    condition = "pk = :pk AND begins_with(sk, :m)";
                    values.put(":m", str("M#"));
                } else {
                    condition = "pk = :pk AND sk BETWEEN :lo AND :hi";
                    // ids use [a-z0-9_-]: ',' sorts just below all of them, 'M$' just above every 'M#…' key
                    values.put(":lo", str(sortKey(after) + ","));
                    values.put(":hi", str("M$"));
                }
                // limit: a page of the walk reads about a page of items, not DynamoDB's default 1 MB
                var r = dynamo.query(b -> b.tableName(table)
                        .consistentRead(true)
                        .keyConditionExpression(condition)
                        .filterExpression("deleted = :false")
                        .expressionAttributeValues(values)
                        .exclusiveStartKey(from)
                        .limit(limit));
                for (Map<String, AttributeValue> item : r.items()) {
                    if (out.size() < limit) {
                        out.add(fromItem(item));
                    }
                }
                start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
            } while (start != null && out.size() < limit);
            return out;
        });
    }

    @Override
    public Page list(ListQuery q) {
        return guarded(() -> {
            Map<String, String> names = new HashMap<>();
            Map<String, AttributeValue> values = new HashMap<>();
            values.put(":pk", str(partition(q.team())));
            values.put(":false", bool(false));
            StringBuilder filter = new StringBuilder("deleted = :false");
            if (q.scope() == Scope.USER) {
                filter.append(" AND #scope = :user_scope AND user_id = :viewer");
                values.put(":user_scope", str("user"));
                values.put(":viewer", str(q.viewer().value()));
            } else if (q.scope() == Scope.TEAM) {
                filter.append(" AND #scope = :team_scope");
                values.put(":team_scope", str("team"));
            } else {
                filter.append(" AND (#scope = :team_scope OR user_id = :viewer)");
                values.put(":team_scope", str("team"));
                values.put(":viewer", str(q.viewer().value()));
            }
            names.put("#scope", "scope");
            if (q.type() != null) {
                filter.append(" AND #type = :type");
                names.put("#type", "type");
                values.put(":type", str(q.type().wire()));
            }
            if (q.tag() != null) {
                filter.append(" AND contains(tags, :tag)");
                values.put(":tag", str(q.tag().value()));
            }
            boolean byImportance = q.order() == ListQuery.Order.IMPORTANCE;
            String keyCondition = "pk = :pk";
            Map<String, AttributeValue> start = q.after() == null ? null : startKey(q);
            List<Memory> rows = new ArrayList<>();
            do {
                QueryRequest.Builder req = QueryRequest.builder()
                        .tableName(table)
                        .keyConditionExpression(keyCondition)
                        .filterExpression(filter.toString())
                        .expressionAttributeNames(names)
                        .expressionAttributeValues(values)
                        .scanIndexForward(false)
                        .limit(Math.max(q.limit() * 2, 25));
                req.indexName(byImportance ? IMPORTANCE_INDEX : RECENCY_INDEX);
                if (start != null) {
                    req.exclusiveStartKey(start);
                }
                QueryResponse r = dynamo.query(req.build());
                for (Map<String, AttributeValue> item : r.items()) {
                    rows.add(fromItem(item));
                    if (rows.size() == q.limit() + 1) {
                        break;
                    }
                }
                start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
            } while (rows.size() <= q.limit() && start != null);
            ListQuery.Cursor next = null;
            if (rows.size() > q.limit()) {
                rows = rows.subList(0, q.limit());
                Memory last = rows.get(rows.size() - 1);
                next = new ListQuery.Cursor(
                        byImportance ? last.importance() : last.createdAt().toEpochMilli(),
                        last.id().value());
            }
            return new Page(List.copyOf(rows), next);
        });
    }

    private Map<String, AttributeValue> startKey(ListQuery q) {
        Map<String, AttributeValue> key = new LinkedHashMap<>();
        key.put(PK, str(partition(q.team())));
        key.put(SK, str(MEMORY_PREFIX + q.after().id()));
        if (q.order() == ListQuery.Order.IMPORTANCE) {
            key.put("imp_key", str(importanceKey(q.after().sortKey(), q.after().id())));
        } else {
            key.put(
                    "rec_key",
                    str(recencyKey((long) q.after().sortKey(), q.after().id())));
        }
        return key;
    }

    /** Importance as a fixed-width string followed by the id, so the local index sorts like (importance, id). */
    static String importanceKey(double importance, String id) {
        return String.format(java.util.Locale.ROOT, "%08d#%s", Math.round(importance * 10_000_000), id);
    }

    /** Creation time in milliseconds, zero-padded, then the id: sorts like (created_at, id). */
    static String recencyKey(long createdMillis, String id) {
        return String.format(java.util.Locale.ROOT, "%015d#%s", createdMillis, id);
    }

    @Override
    public void recordAccess(Id team, Collection<Id> ids, Instant at) {
        guardedRun(() -> {
            for (Id id : ids) {
                try {
                    dynamo.updateItem(b -> b.tableName(table)
                            .key(keyOf(team, id))
                            .updateExpression("ADD access_count :one SET last_accessed_at = :at")
                            .conditionExpression("attribute_exists(pk) AND deleted = :false AND "
                                    + "(attribute_not_exists(last_accessed_at) OR last_accessed_at < :at)")
                            .expressionAttributeValues(
                                    Map.of(":one", num(1), ":at", num(at.toEpochMilli()), ":false", bool(false))));
                } catch (ConditionalCheckFailedException e) {
                    // deleted meanwhile, or a later access already recorded: statistics are best effort
                }
            }
        });
    }

    @Override
    public List<IndexWork> pendingIndex(int limit) {
        return guarded(() -> {
            List<Map<String, AttributeValue>> found = new ArrayList<>();
            List<String> partitions = pendingPartitions();
            // each call starts at the next partition, so a backlog in one never starves the others
            java.util.Collections.rotate(partitions, -Math.floorMod(pendingTurn.getAndIncrement(), partitions.size()));
            for (String partition : partitions) {
                if (found.size() >= limit) {
                    break;
                }
                int want = limit - found.size();
                found.addAll(dynamo.query(b -> b.tableName(table)
                                .indexName(PENDING_INDEX)
                                .keyConditionExpression("pending = :p")
                                .expressionAttributeValues(Map.of(":p", str(partition)))
                                .limit(want))
                        .items());
            }
            List<IndexWork> out = new ArrayList<>();
            for (Map<String, AttributeValue> keys : found) {
                Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                                .key(Map.of(PK, keys.get(PK), SK, keys.get(SK)))
                                .consistentRead(true))
                        .item();
                if (item == null || item.isEmpty() || !item.containsKey("pending")) {
                    continue; // indexed since the (eventually consistent) index was read
                }
                Id team = new Id(item.get(PK).s().substring(2));
                Id id = new Id(item.get(SK).s().substring(MEMORY_PREFIX.length()));
                long version = Long.parseLong(item.get("version").n());
                out.add(new IndexWork(team, id, version, isDeleted(item) ? null : fromItem(item)));
            }
            return out;
        });
    }

    @Override
    public Optional<IndexWork> indexWork(Id team, Id id) {
        return guarded(() -> {
            Map<String, AttributeValue> item = dynamo.getItem(
                            b -> b.tableName(table).key(keyOf(team, id)).consistentRead(true))
                    .item();
            if (item == null || item.isEmpty() || !item.containsKey("pending")) {
                return Optional.empty();
            }
            long version = Long.parseLong(item.get("version").n());
            return Optional.of(new IndexWork(team, id, version, isDeleted(item) ? null : fromItem(item)));
        });
    }

    @Override
    public void markIndexed(Id team, Id id, long version) {
        guardedRun(() -> {
            // a live record is the common case (every write is indexed; deletes are rare): try marking it first, so it
            // costs one conditional write, and only then purge a tombstone — a failed condition is billed too
            try {
                dynamo.updateItem(b -> b.tableName(table)
                        .key(keyOf(team, id))
                        .updateExpression("SET indexed_version = :v REMOVE pending")
                        .conditionExpression("attribute_exists(pk) AND deleted = :false AND version = :v "
                                + "AND indexed_version < :v")
                        .expressionAttributeValues(Map.of(":v", num(version), ":false", bool(false))));
                return;
            } catch (ConditionalCheckFailedException e) {
                // a tombstone, a newer version (it stays pending) or already marked
            }
            try {
                dynamo.deleteItem(b -> b.tableName(table)
                        .key(keyOf(team, id))
                        .conditionExpression("deleted = :true AND version <= :v")
                        .expressionAttributeValues(Map.of(":true", bool(true), ":v", num(version))));
            } catch (ConditionalCheckFailedException e) {
                // not a tombstone at or below this version: nothing to purge
            }
        });
    }

    private static Map<String, AttributeValue> keyOf(Id team, Id id) {
        return Map.of(PK, str(partition(team)), SK, str(sortKey(id)));
    }

    private static Map<String, AttributeValue> toItem(Memory m, long indexedVersion) {
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(PK, str(partition(m.team())));
        item.put(SK, str(sortKey(m.id())));
        item.put("id", str(m.id().value()));
        if (m.user() != null) {
            item.put("user_id", str(m.user().value()));
        }
        item.put("scope", str(m.scope().wire()));
        item.put("type", str(m.type().wire()));
        item.put("content", str(m.content()));
        item.put("tags", list(m.tags()));
        item.put("importance", num(m.importance()));
        item.put("imp_key", str(importanceKey(m.importance(), m.id().value())));
        item.put("confidence", num(m.confidence()));
        if (m.occurredAt() != null) {
            item.put("occurred_at", num(m.occurredAt().toEpochMilli()));
        }
        item.put("created_at", num(m.createdAt().toEpochMilli()));
        item.put("rec_key", str(recencyKey(m.createdAt().toEpochMilli(), m.id().value())));
        if (m.lastAccessedAt() != null) {
            item.put("last_accessed_at", num(m.lastAccessedAt().toEpochMilli()));
        }
        item.put("access_count", num(m.accessCount()));
        if (m.sourceSessionId() != null) {
            item.put("source_session_id", str(m.sourceSessionId().value()));
        }
        item.put("evidence", list(m.evidence()));
        item.put("version", num(m.version()));
        item.put("state", str(m.state().wire()));
        if (m.supersededBy() != null) {
            item.put("superseded_by", str(m.supersededBy().value()));
            item.put("valid_to", num(m.validTo().toEpochMilli()));
        }
        if (m.context() != null) {
            item.put("context", str(m.context()));
        }
        item.put("deleted", bool(false));
        item.put("indexed_version", num(indexedVersion));
        if (indexedVersion < m.version()) {
            // sparse: only lagging items are in the pending index
            item.put("pending", str(pendingShard(m.team(), m.id())));
        }
        return item;
    }

    private static Memory fromItem(Map<String, AttributeValue> item) {
        return new Memory(
                new Id(item.get("id").s()),
                new Id(item.get(PK).s().substring(2)),
                item.containsKey("user_id") ? new Id(item.get("user_id").s()) : null,
                Scope.fromWire(item.get("scope").s()),
                MemoryType.fromWire(item.get("type").s()),
                item.get("content").s(),
                ids(item.get("tags")),
                Double.parseDouble(item.get("importance").n()),
                Double.parseDouble(item.get("confidence").n()),
                instant(item.get("occurred_at")),
                instant(item.get("created_at")),
                instant(item.get("last_accessed_at")),
                Long.parseLong(item.get("access_count").n()),
                item.containsKey("source_session_id")
                        ? new Id(item.get("source_session_id").s())
                        : null,
                ids(item.get("evidence")),
                Long.parseLong(item.get("version").n()),
                MemoryState.fromWire(item.get("state").s()),
                item.containsKey("superseded_by")
                        ? new Id(item.get("superseded_by").s())
                        : null,
                instant(item.get("valid_to")),
                item.containsKey("context") ? item.get("context").s() : null);
    }

    private static boolean isDeleted(Map<String, AttributeValue> item) {
        AttributeValue d = item.get("deleted");
        return d != null && Boolean.TRUE.equals(d.bool());
    }

    private static List<Id> ids(AttributeValue list) {
        return list == null || !list.hasL()
                ? List.of()
                : list.l().stream().map(v -> new Id(v.s())).toList();
    }

    private static Instant instant(AttributeValue v) {
        return v == null || v.n() == null ? null : Instant.ofEpochMilli(Long.parseLong(v.n()));
    }

    private static AttributeValue str(String s) {
        return AttributeValue.builder().s(s).build();
    }

    private static AttributeValue num(double n) {
        return AttributeValue.builder()
                .n(java.math.BigDecimal.valueOf(n).toPlainString())
                .build();
    }

    private static AttributeValue list(List<Id> ids) {
        return AttributeValue.builder()
                .l(ids.stream().map(t -> str(t.value())).toList())
                .build();
    }

    private static AttributeValue num(long n) {
        return AttributeValue.builder().n(Long.toString(n)).build();
    }

    private static AttributeValue bool(boolean b) {
        return AttributeValue.builder().bool(b).build();
    }
}
