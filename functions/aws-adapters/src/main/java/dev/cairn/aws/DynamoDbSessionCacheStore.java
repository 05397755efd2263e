package dev.cairn.aws;

import static dev.cairn.aws.TeamItems.key;
import static dev.cairn.aws.TeamItems.n;
import static dev.cairn.aws.TeamItems.s;
import static dev.cairn.aws.TeamItems.sessions;

import dev.cairn.model.cache.CachedResult;
import dev.cairn.model.cache.ContextPrefix;
import dev.cairn.model.cache.ContextSnapshot;
import dev.cairn.model.cache.HourlyUsage;
import dev.cairn.model.cache.UsageTotals;
import dev.cairn.model.cache.Validator;
import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.SessionCacheStore;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * {@link SessionCacheStore} in the memories table (single-table design, partition {@code S#<team>}, beside the session messages), all under sort
 * keys {@code C#<session>#…} so that neither the memory listings ({@code M#}) nor the session messages ({@code S#})
 * see them: entries {@code #E#<key>} (with {@code expires_at_s} as the table's TTL attribute, so DynamoDB removes
 * expired entries by itself), counters {@code #N}, usage {@code #U#<model>} and per hour {@code #UH#<epoch seconds>#<model>}, prefix {@code #P}, blocks
 * {@code #B#<hash>}, snapshots {@code #X#<turn, 12 digits>}. Counters and usage are {@code ADD} updates (atomic).
 *
 * <p>A result larger than {@link #INLINE_LIMIT} bytes does not fit an item (400 KB with its attributes): it goes to
 * S3 at {@code tool-cache/<team>/<session>/<key>.json} and the item keeps only where it is. Without a bucket such
 * results are refused with 413.
 */
public final class DynamoDbSessionCacheStore implements SessionCacheStore {

    /** Epoch seconds after which DynamoDB may delete an entry: the table's TTL attribute (the CDK stack sets it). */
    public static final String TTL_ATTRIBUTE = "expires_at_s";

    static final int INLINE_LIMIT = 300 * 1024;

    private final DynamoDbClient dynamo;
    private final String table;
    /** Where results over {@link #INLINE_LIMIT} go (S3 in AWS); null when none is configured: they get 413. */
    private final Blobs blobs;

    public DynamoDbSessionCacheStore(DynamoDbClient dynamo, String table) {
        this(dynamo, table, null);
    }

    public DynamoDbSessionCacheStore(DynamoDbClient dynamo, String table, Blobs blobs) {
        this.dynamo = dynamo;
        this.table = table;
        this.blobs = blobs;
    }

    private static String base(Id session) {
        return "C#" + session.value() + "#";
    }

    private static String blobKey(CachedResult e) {
        // every part is an instance of the id grammar or a hex digest: no separator can be smuggled in
        return "tool-cache/" + e.team().value() + "/" + e.session().value() + "/" + e.key() + ".json";
    }

    @Override
    public void putEntry(CachedResult e) {
        Map<String, AttributeValue> item = new HashMap<>(key(sessions(e.team()), base(e.session()) + "E#" + e.key()));
        item.put("tool", s(e.tool()));
        item.put("bytes", n(e.bytes()));
        item.put("stored_at", n(e.storedAt().toEpochMilli()));
        item.put("expires_at", n(e.expiresAt().toEpochMilli()));
        item.put(TTL_ATTRIBUTE, n(e.expiresAt().getEpochSecond() + 1));
        if (e.validator() != null) {
            item.put("v_kind", s(e.validator().kind().wire()));
            item.put("v_value", s(e.validator().value()));
        }
        if (e.bytes() > INLINE_LIMIT) {
            if (blobs == null) {
                throw new ContentTooLarge("result", e.bytes(), INLINE_LIMIT);
            }
            String where = blobKey(e);
            blobs.put(where, e.result().getBytes(StandardCharsets.UTF_8), "application/json");
            item.put("blob", s(where));
        } else {
            item.put("result", s(e.result()));
        }
        DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table).item(item)));
    }

    @Override
    public Optional<CachedResult> entry(Id team, Id session, String key) {
        Map<String, AttributeValue> item = DynamoCalls.guarded(() -> dynamo.getItem(b -> b.tableName(table)
                        .key(key(sessions(team), base(session) + "E#" + key))
                        .consistentRead(true))
                .item());
        return item == null || item.isEmpty() ? Optional.empty() : Optional.of(entry(team, session, item, true));
    }

    @Override
    public boolean deleteEntry(Id team, Id session, String key) {
        Map<String, AttributeValue> old = DynamoCalls.guarded(() -> dynamo.deleteItem(b -> b.tableName(table)
                        .key(key(sessions(team), base(session) + "E#" + key))
                        .returnValues(ReturnValue.ALL_OLD))
                .attributes());
        if (old != null && old.containsKey("blob") && blobs != null) {
            blobs.delete(old.get("blob").s());
        }
        return old != null && !old.isEmpty();
    }

    @Override
    public List<CachedResult> entries(Id team, Id session) {
        List<CachedResult> out = new ArrayList<>();
        for (Map<String, AttributeValue> item : query(team, base(session) + "E#")) {
            out.add(entry(team, session, item, false));
        }
        return out;
    }

    @Override
    public Counters addCounters(Id team, Id session, long hits, long misses, long evictions, boolean bump) {
        Map<String, AttributeValue> a = DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                        .key(key(sessions(team), base(session) + "N"))
                        .updateExpression("ADD hits :h, misses :m, evictions :e, generation :g")
                        .expressionAttributeValues(
                                Map.of(":h", n(hits), ":m", n(misses), ":e", n(evictions), ":g", n(bump ? 1 : 0)))
                        .returnValues(ReturnValue.ALL_NEW))
                .attributes());
        return counters(a);
    }

    @Override
    public Counters counters(Id team, Id session) {
        Map<String, AttributeValue> a = DynamoCalls.guarded(() -> dynamo.getItem(b -> b.tableName(table)
                        .key(key(sessions(team), base(session) + "N"))
                        .consistentRead(true))
                .item());
        return a == null || a.isEmpty() ? Counters.ZERO : counters(a);
    }

    @Override
    public void addUsage(Id team, Id session, String model, Instant hour, UsageTotals d) {
        // two updates, not a transaction (the local stand-in, dynalite, has no TransactWriteItems): a failure between
        // them leaves the hour's row short by this one response, never the totals; ADD keeps both safe to race
        Map<String, AttributeValue> values = Map.of(
                ":model",
                s(model),
                ":r",
                n(d.requests()),
                ":i",
                n(d.inputTokens()),
                ":o",
                n(d.outputTokens()),
                ":w",
                n(d.cacheCreationInputTokens()),
                ":c",
                n(d.cacheReadInputTokens()));
        String add = " ADD requests :r, input_tokens :i, output_tokens :o, cache_write :w, cache_read :c";
        DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                .key(key(sessions(team), base(session) + "U#" + model))
                .updateExpression("SET model = :model" + add)
                .expressionAttributeValues(values)));
        Map<String, AttributeValue> hourValues = new HashMap<>(values);
        hourValues.put(":hour", n(hour.getEpochSecond()));
        DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                .key(key(sessions(team), base(session) + "UH#" + hourKey(hour) + "#" + model))
                .updateExpression("SET model = :model, hour_s = :hour" + add)
                .expressionAttributeValues(hourValues)));
    }

    /** An hour as a sort-key part that sorts in time order (epoch seconds, zero-padded). */
    private static String hourKey(Instant hour) {
        return String.format("%012d", hour.getEpochSecond());
    }

    @Override
    public List<HourlyUsage> hourlyUsage(Id team, Id session) {
        List<HourlyUsage> out = new ArrayList<>();
        for (Map<String, AttributeValue> a : query(team, base(session) + "UH#")) {
            out.add(new HourlyUsage(
                    Instant.ofEpochSecond(num(a, "hour_s")), a.get("model").s(), totals(a)));
        }
        return out; // the sort key orders them by hour, then model
    }

    @Override
    public Map<String, UsageTotals> usage(Id team, Id session) {
        Map<String, UsageTotals> out = new HashMap<>();
        for (Map<String, AttributeValue> a : query(team, base(session) + "U#")) {
            out.put(a.get("model").s(), totals(a));
        }
        return out;
    }

    private static UsageTotals totals(Map<String, AttributeValue> a) {
        return new UsageTotals(
                num(a, "requests"),
                num(a, "input_tokens"),
                num(a, "output_tokens"),
                num(a, "cache_write"),
                num(a, "cache_read"));
    }

    @Override
    public void putPrefix(Id team, Id session, ContextPrefix p) {
        Map<String, AttributeValue> item = new HashMap<>(key(sessions(team), base(session) + "P"));
        item.put("system", s(p.system()));
        item.put("tools", s(p.tools()));
        item.put("model", s(p.model()));
        DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table).item(item)));
    }

    @Override
    public Optional<ContextPrefix> prefix(Id team, Id session) {
        Map<String, AttributeValue> a = DynamoCalls.guarded(() -> dynamo.getItem(b -> b.tableName(table)
                        .key(key(sessions(team), base(session) + "P"))
                        .consistentRead(true))
                .item());
        return a == null || a.isEmpty()
                ? Optional.empty()
                : Optional.of(new ContextPrefix(
                        a.get("system").s(), a.get("tools").s(), a.get("model").s()));
    }

    @Override
    public void putSnapshot(Id team, Id session, ContextSnapshot snap, Map<String, String> blocksByHash) {
        for (Map.Entry<String, String> b : blocksByHash.entrySet()) {
            Map<String, AttributeValue> item = new HashMap<>(key(sessions(team), base(session) + "B#" + b.getKey()));
            item.put("text", s(b.getValue()));
            try {
                // content-addressed: a block already stored is the same text, so a failed condition is success
                DynamoCalls.guarded(() -> dynamo.putItem(
                        x -> x.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)")));
            } catch (software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException e) {
                // already there
            }
        }
        Map<String, AttributeValue> item =
                new HashMap<>(key(sessions(team), String.format("%sX#%012d", base(session), snap.turn())));
        item.put("assembled_at", n(snap.assembledAt().toEpochMilli()));
        item.put("model", s(snap.model()));
        item.put("max_tokens", n(snap.maxTokens()));
        item.put("blocks", s(snap.encodeBlocks()));
        DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table).item(item)));
    }

    @Override
    public Optional<ContextSnapshot> snapshot(Id team, Id session, long turn) {
        Map<String, AttributeValue> a = DynamoCalls.guarded(() -> dynamo.getItem(b -> b.tableName(table)
                        .key(key(sessions(team), String.format("%sX#%012d", base(session), turn)))
                        .consistentRead(true))
                .item());
        return a == null || a.isEmpty()
                ? Optional.empty()
                : Optional.of(new ContextSnapshot(
                        turn,
                        Instant.ofEpochMilli(num(a, "assembled_at")),
                        a.get("model").s(),
                        (int) num(a, "max_tokens"),
                        ContextSnapshot.decodeBlocks(a.get("blocks").s())));
    }

    @Override
    public Map<String, String> blocks(Id team, Id session, List<String> hashes) {
        Map<String, String> out = new HashMap<>();
        for (String h : hashes) {
            if (out.containsKey(h)) {
                continue;
            }
            Map<String, AttributeValue> a = DynamoCalls.guarded(() -> dynamo.getItem(b -> b.tableName(table)
                            .key(key(sessions(team), base(session) + "B#" + h))
                            .consistentRead(true))
                    .item());
            if (a != null && !a.isEmpty()) {
                out.put(h, a.get("text").s());
            }
        }
        return out;
    }

    /** {@code R#<memory>#<session>#<turn, 12 digits>} in the team's sessions partition: one item per showing. */
    private static String shownKey(Id memory, Id session, long turn) {
        return String.format("R#%s#%s#%012d", memory.value(), session.value(), turn);
    }

    @Override
    public void recordShown(Id team, Id session, long turn, Collection<Id> memories) {
        for (Id m : memories) {
            Map<String, AttributeValue> item = new HashMap<>(key(sessions(team), shownKey(m, session, turn)));
            item.put("session", s(session.value()));
            item.put("turn", n(turn));
            DynamoCalls.guarded(() -> dynamo.putItem(b -> b.tableName(table).item(item)));
        }
    }

    @Override
    public List<Shown> snapshotsShowing(Id team, Id memory) {
        List<Shown> out = new ArrayList<>();
        for (Map<String, AttributeValue> a : query(team, "R#" + memory.value() + "#")) {
            out.add(new Shown(new Id(a.get("session").s()), num(a, "turn")));
        }
        return out;
    }

    @Override
    public void forgetShown(Id team, Id memory) {
        for (Map<String, AttributeValue> a : query(team, "R#" + memory.value() + "#")) {
            DynamoCalls.guarded(() -> dynamo.deleteItem(b -> b.tableName(table)
                    .key(Map.of(
                            DynamoDbMemoryStore.PK,
                            a.get(DynamoDbMemoryStore.PK),
                            DynamoDbMemoryStore.SK,
                            a.get(DynamoDbMemoryStore.SK)))));
        }
    }

    @Override
    public void deleteBlocks(Id team, Id session, Collection<String> hashes) {
        for (String h : hashes) {
            DynamoCalls.guarded(() ->
                    dynamo.deleteItem(b -> b.tableName(table).key(key(sessions(team), base(session) + "B#" + h))));
        }
    }

    private List<Map<String, AttributeValue>> query(Id team, String prefix) {
        return TeamItems.queryPrefix(dynamo, table, sessions(team), prefix);
    }

    private CachedResult entry(Id team, Id session, Map<String, AttributeValue> a, boolean withBlob) {
        String result;
        if (a.containsKey("result")) {
            result = a.get("result").s();
        } else if (withBlob && blobs != null) {
            String where = a.get("blob").s();
            result = blobs.get(where)
                    .map(b -> new String(b, StandardCharsets.UTF_8))
                    .orElseThrow(() -> new IllegalStateException("the blob of a cache entry is missing: " + where));
        } else {
            result = ""; // listings need sizes and tools, not the large bodies
        }
        String sk = a.get(DynamoDbMemoryStore.SK).s();
        return new CachedResult(
                team,
                session,
                sk.substring(sk.lastIndexOf('#') + 1),
                a.get("tool").s(),
                result,
                num(a, "bytes"),
                Instant.ofEpochMilli(num(a, "stored_at")),
                Instant.ofEpochMilli(num(a, "expires_at")),
                a.containsKey("v_kind")
                        ? new Validator(
                                Validator.Kind.fromWire(a.get("v_kind").s()),
                                a.get("v_value").s())
                        : null);
    }

    private static Counters counters(Map<String, AttributeValue> a) {
        return new Counters(num(a, "hits"), num(a, "misses"), num(a, "evictions"), num(a, "generation"));
    }

    private static long num(Map<String, AttributeValue> a, String name) {
        AttributeValue v = a.get(name);
        return v == null || v.n() == null ? 0 : Long.parseLong(v.n());
    }
}
