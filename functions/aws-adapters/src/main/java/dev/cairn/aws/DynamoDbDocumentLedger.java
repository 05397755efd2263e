package dev.cairn.aws;

import static dev.cairn.aws.TeamItems.key;
import static dev.cairn.aws.TeamItems.n;

import dev.cairn.model.id.Id;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * {@link DocumentLedger} in the memories table: one item per memory, {@code T#<team>} / {@code D#<id>}, one attribute
 * {@code d_<document id>} = version per indexed document. Each change is a single-attribute update (no read-modify-
 * write), so the write path and the stream indexer recording documents of the same memory at once both land. The
 * {@code D#} sort keys are outside every listing ({@code M#}, {@code S#}, ...) and outside the stream indexer's filter.
 */
public final class DynamoDbDocumentLedger implements DocumentLedger {

    static final String PREFIX = "D#";
    private static final String ATTRIBUTE = "d_";
    /** How many documents are recorded: the entry is deleted when it reaches 0, and not if one was added since. */
    private static final String COUNT = "documents";

    private final DynamoDbClient dynamo;
    private final String table;

    public DynamoDbDocumentLedger(DynamoDbClient dynamo, String table) {
        this.dynamo = dynamo;
        this.table = table;
    }

    @Override
    public Map<String, Long> documents(Id team, Id id) {
        Map<String, AttributeValue> item = DynamoCalls.guarded(() -> dynamo.getItem(b ->
                        b.tableName(table).key(key(team, PREFIX + id.value())).consistentRead(true))
                .item());
        Map<String, Long> out = new LinkedHashMap<>();
        if (item != null) {
            item.forEach((name, value) -> {
                if (name.startsWith(ATTRIBUTE)) {
                    out.put(name.substring(ATTRIBUTE.length()), Long.parseLong(value.n()));
                }
            });
        }
        return out;
    }

    @Override
    public void add(Id team, Id id, String documentId, long version) {
        try {
            DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                    .key(key(team, PREFIX + id.value()))
                    .updateExpression("SET #d = :v ADD #n :one")
                    .conditionExpression("attribute_not_exists(#d)")
                    .expressionAttributeNames(Map.of("#d", ATTRIBUTE + documentId, "#n", COUNT))
                    .expressionAttributeValues(Map.of(":v", n(version), ":one", n(1)))));
        } catch (ConditionalCheckFailedException e) {
            // recorded already (a retried call): counted once
        }
    }

    @Override
    public void remove(Id team, Id id, Collection<String> documentIds) {
        if (documentIds.isEmpty()) {
            return;
        }
        Map<String, String> names = new HashMap<>();
        StringBuilder expr = new StringBuilder("REMOVE ");
        int i = 0;
        for (String d : documentIds) {
            names.put("#d" + i, ATTRIBUTE + d);
            expr.append(i == 0 ? "" : ", ").append("#d").append(i);
            i++;
        }
        Map<String, AttributeValue> old = DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                        .key(key(team, PREFIX + id.value()))
                        .updateExpression(expr.toString())
                        .expressionAttributeNames(names)
                        .returnValues(ReturnValue.UPDATED_OLD))
                .attributes());
        long removed = old == null
                ? 0
                : old.keySet().stream().filter(a -> a.startsWith(ATTRIBUTE)).count();
        if (removed == 0) {
            return; // removed by another caller, which also counted them
        }
        Map<String, AttributeValue> now = DynamoCalls.guarded(() -> dynamo.updateItem(b -> b.tableName(table)
                        .key(key(team, PREFIX + id.value()))
                        .updateExpression("ADD #n :minus")
                        .expressionAttributeNames(Map.of("#n", COUNT))
                        .expressionAttributeValues(Map.of(":minus", n(-removed)))
                        .returnValues(ReturnValue.UPDATED_NEW))
                .attributes());
        if (now != null
                && now.containsKey(COUNT)
                && Long.parseLong(now.get(COUNT).n()) <= 0) {
            try {
                DynamoCalls.guarded(() -> dynamo.deleteItem(b -> b.tableName(table)
                        .key(key(team, PREFIX + id.value()))
                        .conditionExpression("#n <= :zero")
                        .expressionAttributeNames(Map.of("#n", COUNT))
                        .expressionAttributeValues(Map.of(":zero", n(0)))));
            } catch (ConditionalCheckFailedException e) {
                // a document was recorded meanwhile: the entry stays for it
            }
        }
    }
}
