package dev.cairn.aws;

import dev.cairn.model.id.Id;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** Attribute and key helpers of the single-table design: every item of a team lives in partition {@code T#<team>}. */
final class TeamItems {

    private TeamItems() {
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }

    static Map<String, AttributeValue> key(Id team, String sk) {
        return Map.of(DynamoDbMemoryStore.PK, s("T#" + team.value()), DynamoDbMemoryStore.SK, s(sk));
    }
}
