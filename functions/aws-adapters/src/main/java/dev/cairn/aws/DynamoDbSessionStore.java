package dev.cairn.aws;

import static dev.cairn.aws.TeamItems.key;
import static dev.cairn.aws.TeamItems.n;
import static dev.cairn.aws.TeamItems.s;
import static dev.cairn.aws.TeamItems.sessions;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.session.SessionHead;
import dev.cairn.model.session.SessionMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * {@link SessionStore} in the memories table (single-table design): partition {@code S#<team>} (see {@link TeamItems}), the head at sort key
 * {@code S#<session>#H}, each message at {@code S#<session>#M#<seq, 12 digits>} so a range query reads them in order.
 * A message is written with {@code attribute_not_exists(pk)} (the number is taken only if free); the head with
 * {@code attribute_not_exists(pk)} when new, {@code version = :expected} after.
 */
public final class DynamoDbSessionStore implements SessionStore {

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbSessionStore(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    private static String headKey(Id session) {
        return "S#" + session.value() + "#H";
    }

    private static String messageKey(Id session, long seq) {
        return String.format("S#%s#M#%012d", session.value(), seq);
    }

    @Override
    public Optional<SessionHead> head(Id team, Id session) {
        return DynamoCalls.guarded(() -> {
            Map<String, AttributeValue> item = dynamo.getItem(b -> b.tableName(table)
                            .key(key(sessions(team), headKey(session)))
                            .consistentRead(true))
                    .item();
            if (item == null || item.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(new SessionHead(
                    team,
                    session,
                    Long.parseLong(item.get("version").n()),
                    Long.parseLong(item.get("last_seq").n()),
                    Long.parseLong(item.get("folded_through").n()),
                    item.get("summary").s(),
                    Long.parseLong(item.get("summary_version").n()),
                    item.get("ended").bool(),
                    Instant.ofEpochMilli(Long.parseLong(item.get("updated_at").n())),
                    item.containsKey("owner") ? new Id(item.get("owner").s()) : null)); // none: a team session
        });
    }

    @Override
    public boolean putMessage(Id team, Id session, SessionMessage m) {
        Map<String, AttributeValue> item = new HashMap<>(key(sessions(team), messageKey(session, m.seq())));
        item.put("seq", n(m.seq()));
        item.put("id", s(m.id().value()));
        item.put("role", s(m.role().name()));
        item.put("content", s(m.content()));
        item.put("occurred_at", n(m.occurredAt().toEpochMilli()));
        return DynamoCalls.guarded(() -> {
            try {
                dynamo.putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)"));
                return true;
            } catch (ConditionalCheckFailedException e) {
                return false;
            }
        });
    }

    @Override
    public List<SessionMessage> messages(Id team, Id session, long from, long to) {
        return DynamoCalls.guarded(() -> {
            List<SessionMessage> out = new ArrayList<>();
            Map<String, AttributeValue> start = null;
            do {
                Map<String, AttributeValue> exclusiveStart = start;
                QueryResponse r = dynamo.query(b -> b.tableName(table)
                        .consistentRead(true)
                        .keyConditionExpression("pk = :pk AND sk BETWEEN :from AND :to")
                        .expressionAttributeValues(Map.of(
                                ":pk",
                                s(sessions(team)),
                                ":from",
                                s(messageKey(session, from)),
                                ":to",
                                s(messageKey(session, to))))
                        .exclusiveStartKey(exclusiveStart));
                for (Map<String, AttributeValue> item : r.items()) {
                    out.add(new SessionMessage(
                            new Id(item.get("id").s()),
                            Long.parseLong(item.get("seq").n()),
                            SessionMessage.Role.valueOf(item.get("role").s()),
                            item.get("content").s(),
                            Instant.ofEpochMilli(
                                    Long.parseLong(item.get("occurred_at").n()))));
                }
                start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
            } while (start != null);
            return out;
        });
    }

    @Override
    public void putHead(SessionHead h, long expectedVersion) {
        Map<String, AttributeValue> item = new HashMap<>(key(sessions(h.team()), headKey(h.session())));
        item.put("version", n(h.version()));
        item.put("last_seq", n(h.lastSeq()));
        item.put("folded_through", n(h.foldedThrough()));
        item.put("summary", s(h.summary()));
        item.put("summary_version", n(h.summaryVersion()));
        item.put("ended", AttributeValue.fromBool(h.ended()));
        item.put("updated_at", n(h.updatedAt().toEpochMilli()));
        if (h.owner() != null) {
            item.put("owner", s(h.owner().value()));
        }
        DynamoCalls.guarded(() -> {
            try {
                if (expectedVersion == 0) {
                    dynamo.putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)"));
                } else {
                    dynamo.putItem(b -> b.tableName(table)
                            .item(item)
                            .conditionExpression("version = :v")
                            .expressionAttributeValues(Map.of(":v", n(expectedVersion))));
                }
                return null;
            } catch (ConditionalCheckFailedException e) {
                throw new VersionConflict(
                        "session " + h.session(),
                        expectedVersion,
                        head(h.team(), h.session()).map(SessionHead::version).orElse(0L));
            }
        });
    }
}
