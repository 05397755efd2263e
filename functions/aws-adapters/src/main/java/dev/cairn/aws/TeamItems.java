package dev.cairn.aws;

import dev.cairn.model.id.Id;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

/** Attribute and key helpers of the single-table design: every item of a team lives in partition {@code T#<team>}. */
final class TeamItems {

    private TeamItems() {}

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    static Map<String, AttributeValue> key(Id team, String sk) {
        return Map.of(DynamoDbMemoryStore.PK, s("T#" + team.value()), DynamoDbMemoryStore.SK, s(sk));
    }

    /** Every item of the team's partition whose sort key starts with {@code prefix}, all pages, strongly read. */
    static List<Map<String, AttributeValue>> queryPrefix(DynamoDbClient dynamo, String table, Id team, String prefix) {
        List<Map<String, AttributeValue>> out = new ArrayList<>();
        Map<String, AttributeValue> start = null;
        do {
            Map<String, AttributeValue> from = start;
            QueryResponse r = DynamoCalls.guarded(() -> dynamo.query(b -> b.tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :pk AND begins_with(sk, :p)")
                    .expressionAttributeValues(Map.of(":pk", s("T#" + team.value()), ":p", s(prefix)))
                    .exclusiveStartKey(from)));
            out.addAll(r.items());
            start = r.hasLastEvaluatedKey() && !r.lastEvaluatedKey().isEmpty() ? r.lastEvaluatedKey() : null;
        } while (start != null);
        return out;
    }
}
