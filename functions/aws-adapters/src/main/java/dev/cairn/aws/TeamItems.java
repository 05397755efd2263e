package dev.cairn.aws;

import dev.cairn.model.id.Id;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/**
 * Attribute and key helpers of the single-table design. A team's items live in one partition per kind: memories (and
 * their document ledger) in {@code T#<team>}, sessions with their context cache in {@code S#<team>}, the sync log in
 * {@code Y#<team>}. The table has no local secondary index, so no partition (item collection) has a size ceiling;
 * keeping the kinds apart keeps session and sync traffic off the memories' partition and out of the memory stream.
 */
final class TeamItems {

    private TeamItems() {}

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    /** The memories' partition of a team (the stream indexer's filter matches its prefix). */
    static String memories(Id team) {
        return "T#" + team.value();
    }

    /** The partition of a team's sessions, their messages and their context cache. */
    static String sessions(Id team) {
        return "S#" + team.value();
    }

    /** The partition of a team's sync log (commits, facts, idempotency keys, head). */
    static String sync(Id team) {
        return "Y#" + team.value();
    }

    static Map<String, AttributeValue> key(String pk, String sk) {
        return Map.of(DynamoDbMemoryStore.PK, s(pk), DynamoDbMemoryStore.SK, s(sk));
    }

    static Map<String, AttributeValue> key(Id team, String sk) {
        return key(memories(team), sk);
    }

    /** Every item of partition {@code pk} whose sort key starts with {@code prefix}, all pages, strongly read. */
    static List<Map<String, AttributeValue>> queryPrefix(
            DynamoDbClient dynamo, String table, String pk, String prefix) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = DynamoCalls.guarded(() -> dynamo.query(b -> b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :pk AND begins_with(sk, :p)")
                    .expressionAttributeValues(Map.of(":pk", s(pk), ":p", s(prefix)))
                    .exclusiveStartKey(from)));
            out.addAll(r.items());
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return out;
    }
}
