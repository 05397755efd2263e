package dev.cairn.aws;

import static dev.cairn.aws.TeamItems.key;
import static dev.cairn.aws.TeamItems.n;
import static dev.cairn.aws.TeamItems.s;
import static dev.cairn.aws.TeamItems.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.ConflictRecord;
import dev.cairn.model.sync.FactState;
import dev.cairn.model.sync.OpsCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * {@link SyncStore} in the memories table (single-table design, partition {@code Y#<team>}): commits at sort key
 * {@code Y#C#<version, 12 digits>} written with {@code attribute_not_exists(pk)} — the single linearization point —
 * so the change feed is a range query; void marks {@code Y#V#<version>} beside them; the materialized head
 * {@code Y#H}, idempotency claims {@code Y#I#<key>}
 * (conditional puts), facts {@code Y#F#<fact_id>} (written only over an older commit), conflicts {@code Y#X#<id>}.
 * No transactions (dynalite has none; the design needs none).
 */
public final class DynamoDbSyncStore implements SyncStore {

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbSyncStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    private static String commitKey(long version) {
        return String.format("Y#C#%012d", version);
    }

    @Override
    public boolean appendCommit(Commit c) {
        Map<String, AttributeValue> item = new HashMap<>(key(sync(c.team()), commitKey(c.version())));
        item.put("version", n(c.version()));
        item.put("client_id", s(c.clientId().value()));
        item.put("idem_key", s(c.idempotencyKey()));
        item.put("committer", s(c.committer().value()));
        item.put("committed_at", n(c.committedAt().toEpochMilli()));
        item.put("ops", s(OpsCodec.encode(c.ops())));
        try {
            DynamoCalls.guarded(() ->
                    dynamo.putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)")));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    @Override
    public List<Commit> commits(Id team, long after, int limit) {
        List<Commit> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            int want = limit - out.size();
            QueryResponse r = DynamoCalls.guarded(() -> dynamo.query(b -> b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :pk AND sk BETWEEN :lo AND :hi")
                    .expressionAttributeValues(Map.of(
                            ":pk",
                            s(sync(team)),
                            ":lo",
                            s(commitKey(after + 1)),
                            ":hi",
                            s(commitKey(999_999_999_999L))))
                    .limit(want)
                    .exclusiveStartKey(from)));
            for (Map<String, AttributeValue> a : r.items()) {
                out.add(new Commit(
                        team,
                        Long.parseLong(a.get("version").n()),
                        new Id(a.get("client_id").s()),
                        a.get("idem_key").s(),
                        new Id(a.get("committer").s()),
                        Instant.ofEpochMilli(
                                Long.parseLong(a.get("committed_at").n())),
                        OpsCodec.decode(a.get("ops").s())));
            }
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null && out.size() < limit);
        return out;
    }

    @Override
    public long lastCommit(Id team) {
        QueryResponse r = DynamoCalls.guarded(() -> dynamo.query(b -> b.tableName(table)
                .consistentRead(true)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :p)")
                .expressionAttributeValues(Map.of(":pk", s(sync(team)), ":p", s("Y#C#")))
                .scanIndexForward(false)
                .limit(1)));
        return r.items().isEmpty()
                ? 0
                : Long.parseLong(r.items().get(0).get("version").n());
    }

    @Override
    public long materialized(Id team) {
        Map<String, AttributeValue> a = get(team, "Y#H");
        return a == null ? 0 : Long.parseLong(a.get("head_version").n());
    }

    @Override
    public void advanceMaterialized(Id team, long version) {
        try {
            DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                    .key(key(sync(team), "Y#H"))
                    .updateExpression("SET head_version = :v")
                    .conditionExpression("attribute_not_exists(head_version) OR head_version < :v")
                    .expressionAttributeValues(Map.of(":v", n(version)))));
        } catch (ConditionalCheckFailedException e) {
            // already further on: the head never moves back
        }
    }

    @Override
    public long claimIdempotency(Id team, String idemKey, long version) {
        Map<String, AttributeValue> item = new HashMap<>(key(sync(team), "Y#I#" + idemKey));
        item.put("version", n(version));
        try {
            DynamoCalls.guarded(() ->
                    dynamo.putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)")));
            return version;
        } catch (ConditionalCheckFailedException e) {
            return idempotency(team, idemKey).orElseThrow();
        }
    }

    @Override
    public Optional<Long> idempotency(Id team, String idemKey) {
        Map<String, AttributeValue> a = get(team, "Y#I#" + idemKey);
        return a == null
                ? Optional.empty()
                : Optional.of(Long.parseLong(a.get("version").n()));
    }

    @Override
    public void markVoid(Id team, long version) {
        DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table)
                .item(Map.of(
                        "pk", s(sync(team)), "sk", s(String.format("Y#V#%012d", version)), "version", n(version)))));
    }

    @Override
    public java.util.Set<Long> voids(Id team, long after, long upTo) {
        java.util.Set<Long> out = new java.util.HashSet<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = DynamoCalls.guarded(() -> dynamo.query(b -> b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :pk AND sk BETWEEN :lo AND :hi")
                    .expressionAttributeValues(Map.of(
                            ":pk",
                            s(sync(team)),
                            ":lo",
                            s(String.format("Y#V#%012d", after + 1)),
                            ":hi",
                            s(String.format("Y#V#%012d", upTo))))
                    .exclusiveStartKey(from)));
            r.items().forEach(a -> out.add(Long.parseLong(a.get("version").n())));
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return out;
    }

    @Override
    public Map<Id, FactState> facts(Id team, Collection<Id> factIds) {
        Map<Id, FactState> out = new HashMap<>();
        for (Id f : factIds) {
            Map<String, AttributeValue> a = get(team, "Y#F#" + f.value());
            if (a != null) {
                out.put(f, fact(team, a));
            }
        }
        return out;
    }

    @Override
    public List<FactState> allFacts(Id team) {
        List<FactState> out = new ArrayList<>();
        for (Map<String, AttributeValue> a : query(team, "Y#F#")) {
            out.add(fact(team, a));
        }
        return out;
    }

    @Override
    public void putFact(FactState f) {
        try {
            DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table)
                    .item(factItem(f))
                    .conditionExpression("attribute_not_exists(pk) OR commit_version < :c")
                    .expressionAttributeValues(Map.of(":c", n(f.commit())))));
        } catch (ConditionalCheckFailedException e) {
            // a newer commit already shaped this fact
        }
    }

    @Override
    public void resetMaterialized(Id team, List<FactState> facts, long version) {
        Map<Id, FactState> keep = new HashMap<>();
        facts.forEach(f -> keep.put(f.factId(), f));
        for (FactState old : allFacts(team)) {
            if (!keep.containsKey(old.factId())) {
                DynamoCalls.guarded(() -> dynamo.deleteItem(b -> b.tableName(table)
                        .key(key(sync(team), "Y#F#" + old.factId().value()))));
            }
        }
        for (FactState f : facts) {
            DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table).item(factItem(f))));
        }
        DynamoCalls.guarded(() -> dynamo.putItem(
                b -> b.tableName(table).item(Map.of("pk", s(sync(team)), "sk", s("Y#H"), "head_version", n(version)))));
    }

    @Override
    public void putConflict(ConflictRecord c) {
        Map<String, AttributeValue> item = new HashMap<>(key(sync(c.team()), "Y#X#" + c.id().value()));
        item.put("fact_id", s(c.factId().value()));
        item.put("base_version", n(c.baseVersion()));
        item.put("current_version", n(c.currentVersion()));
        if (c.currentContent() != null) {
            item.put("current_content", s(c.currentContent()));
        }
        item.put("proposed", s(OpsCodec.encode(List.of(c.proposed()))));
        item.put("client_id", s(c.clientId().value()));
        item.put("created_at", n(c.createdAt().toEpochMilli()));
        item.put("status", s(c.status()));
        if (c.resolution() != null) {
            item.put("resolution", s(c.resolution()));
        }
        DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table).item(item)));
    }

    @Override
    public List<ConflictRecord> conflicts(Id team) {
        List<ConflictRecord> out = new ArrayList<>();
        for (Map<String, AttributeValue> a : query(team, "Y#X#")) {
            out.add(conflict(team, a));
        }
        return out;
    }

    @Override
    public Optional<ConflictRecord> conflict(Id team, Id id) {
        Map<String, AttributeValue> a = get(team, "Y#X#" + id.value());
        return a == null ? Optional.empty() : Optional.of(conflict(team, a));
    }

    @Override
    public boolean updateConflict(ConflictRecord c, String expectedStatus) {
        try {
            DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                    .key(key(sync(c.team()), "Y#X#" + c.id().value()))
                    .updateExpression("SET #s = :s, #r = :r")
                    .conditionExpression("#s = :expected")
                    .expressionAttributeNames(Map.of("#s", "status", "#r", "resolution"))
                    .expressionAttributeValues(Map.of(
                            ":s",
                            s(c.status()),
                            ":r",
                            s(c.resolution() == null ? "" : c.resolution()),
                            ":expected",
                            s(expectedStatus)))));
            return true;
        } catch (ConditionalCheckFailedException e) {
            return false;
        }
    }

    private Map<String, AttributeValue> get(Id team, String sk) {
        Map<String, AttributeValue> a = DynamoCalls.guarded(() -> dynamo.getItem(
                        b -> b.tableName(table).key(key(sync(team), sk)).consistentRead(true))
                .item());
        return a == null || a.isEmpty() ? null : a;
    }

    private List<Map<String, AttributeValue>> query(Id team, String prefix) {
        return TeamItems.queryPrefix(dynamo, table, sync(team), prefix);
    }

    private static Map<String, AttributeValue> factItem(FactState f) {
        Map<String, AttributeValue> item =
                new HashMap<>(key(sync(f.team()), "Y#F#" + f.factId().value()));
        item.put("fact_id", s(f.factId().value()));
        item.put("version", n(f.version()));
        item.put("deleted", AttributeValue.fromBool(f.deleted()));
        item.put("content", s(f.content()));
        item.put("type", s(f.type().wire()));
        item.put("tags", s(String.join(",", f.tags().stream().map(Id::value).toList())));
        item.put("confidence", AttributeValue.fromN(Double.toString(f.confidence())));
        item.put("commit_version", n(f.commit()));
        item.put("memory_id", s(f.memoryId().value()));
        return item;
    }

    private static FactState fact(Id team, Map<String, AttributeValue> a) {
        String tags = a.get("tags").s();
        return new FactState(
                team,
                new Id(a.get("fact_id").s()),
                Long.parseLong(a.get("version").n()),
                a.get("deleted").bool(),
                a.get("content").s(),
                MemoryType.fromWire(a.get("type").s()),
                tags.isEmpty()
                        ? List.of()
                        : Arrays.stream(tags.split(",")).map(Id::new).toList(),
                Double.parseDouble(a.get("confidence").n()),
                Long.parseLong(a.get("commit_version").n()),
                new Id(a.get("memory_id").s()));
    }

    private static ConflictRecord conflict(Id team, Map<String, AttributeValue> a) {
        String resolution = a.containsKey("resolution") ? a.get("resolution").s() : null;
        return new ConflictRecord(
                team,
                new Id(a.get(DynamoDbMemoryStore.SK).s().substring(4)),
                new Id(a.get("fact_id").s()),
                Long.parseLong(a.get("base_version").n()),
                Long.parseLong(a.get("current_version").n()),
                a.containsKey("current_content") ? a.get("current_content").s() : null,
                OpsCodec.decode(a.get("proposed").s()).get(0),
                new Id(a.get("client_id").s()),
                Instant.ofEpochMilli(Long.parseLong(a.get("created_at").n())),
                a.get("status").s(),
                resolution == null || resolution.isEmpty() ? null : resolution);
    }
}
