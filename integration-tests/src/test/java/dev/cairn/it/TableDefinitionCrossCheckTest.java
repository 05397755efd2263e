package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbSessionCacheStore;
import dev.cairn.aws.DynamoDbStreamIndexing;
import dev.cairn.infra.CairnSettings;
import dev.cairn.infra.CairnStack;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Template;
import software.amazon.awssdk.services.dynamodb.model.CreateTableRequest;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;

/**
 * The DynamoDB table the CDK stack deploys (its synthesized template) against the table the AWS adapters create and
 * query ({@link DynamoDbMemoryStore#tableDefinition}): keys and their types, each index with its keys and projection,
 * the billing mode, the stream the indexer reads and the TTL attribute. A name changed on one side only fails here.
 */
class TableDefinitionCrossCheckTest {

    private static Map<String, Object> deployed;
    private static final CreateTableRequest CODE = DynamoDbMemoryStore.tableDefinition(CairnStack.TABLE_NAME);

    @BeforeAll
    static void synth() {
        Map<String, Object> context = Map.of(
                "jwtIssuer",
                "https://auth.example.com",
                "jwtAudience",
                "cairn-api",
                "functionsDir",
                "/nonexistent/functions");
        CairnStack stack = new CairnStack(
                new App(),
                "Cairn",
                StackProps.builder()
                        .env(Environment.builder()
                                .account("123456789012")
                                .region("eu-west-1")
                                .build())
                        .build(),
                CairnSettings.from(context::get));
        Map<String, Map<String, Object>> resources =
                cast(Template.fromStack(stack).toJSON().get("Resources"));
        List<Map<String, Object>> tables = resources.values().stream()
                .filter(r -> "AWS::DynamoDB::Table".equals(r.get("Type")))
                .toList();
        assertThat(tables).hasSize(1);
        deployed = cast(tables.get(0).get("Properties"));
    }

    @Test
    void theTablesKeys_shouldBeTheAdaptersKeys() {
        assertThat(keys(deployed.get("KeySchema"))).isEqualTo(keys(CODE.keySchema()));
    }

    @Test
    void theKeyAttributesTypes_shouldBeTheAdapters() {
        Map<String, String> code = new TreeMap<>();
        CODE.attributeDefinitions().forEach(a -> code.put(a.attributeName(), a.attributeTypeAsString()));
        Map<String, String> stack = new TreeMap<>();
        for (Map<String, Object> a : list(deployed.get("AttributeDefinitions"))) {
            stack.put((String) a.get("AttributeName"), (String) a.get("AttributeType"));
        }

        assertThat(stack).isEqualTo(code);
    }

    @Test
    void theSecondaryIndexes_shouldBeTheAdapters_kindNameKeysAndProjection() {
        Map<String, String> code = new TreeMap<>();
        CODE.localSecondaryIndexes()
                .forEach(i -> code.put(
                        "local " + i.indexName(),
                        keys(i.keySchema()) + " " + i.projection().projectionTypeAsString()));
        CODE.globalSecondaryIndexes()
                .forEach(i -> code.put(
                        "global " + i.indexName(),
                        keys(i.keySchema()) + " " + i.projection().projectionTypeAsString()));

        Map<String, String> stack = new TreeMap<>(indexes("local", "LocalSecondaryIndexes"));
        stack.putAll(indexes("global", "GlobalSecondaryIndexes"));

        assertThat(stack).isEqualTo(code);
    }

    @Test
    void theBillingMode_shouldBeTheAdapters() {
        assertThat(deployed.get("BillingMode")).isEqualTo(CODE.billingModeAsString());
    }

    @Test
    void theStream_shouldCarryWhatTheIndexerReads() {
        Map<String, Object> stream = cast(deployed.get("StreamSpecification"));

        assertThat(stream.get("StreamViewType")).isEqualTo(DynamoDbStreamIndexing.STREAM_VIEW_TYPE.toString());
    }

    @Test
    void theTimeToLive_shouldBeTheAttributeTheToolCacheWrites() {
        assertThat(deployed.get("TimeToLiveSpecification"))
                .isEqualTo(Map.of("AttributeName", DynamoDbSessionCacheStore.TTL_ATTRIBUTE, "Enabled", true));
    }

    /** {@code "local by_recency"} → {@code "pk:HASH rec_key:RANGE ALL"}, as the template declares them. */
    private static Map<String, String> indexes(String kind, String property) {
        Map<String, String> stack = new TreeMap<>();
        for (Map<String, Object> i : list(deployed.getOrDefault(property, List.of()))) {
            Map<String, Object> projection = cast(i.get("Projection"));
            stack.put(
                    kind + " " + i.get("IndexName"), keys(i.get("KeySchema")) + " " + projection.get("ProjectionType"));
        }
        return stack;
    }

    /** {@code "name:HASH name:RANGE"}: the order matters (HASH first), so it is kept. */
    private static String keys(Object keySchema) {
        StringBuilder b = new StringBuilder();
        for (Object k : (List<?>) keySchema) {
            String name;
            String type;
            if (k instanceof KeySchemaElement e) {
                name = e.attributeName();
                type = e.keyTypeAsString();
            } else {
                Map<String, Object> m = cast(k);
                name = (String) m.get("AttributeName");
                type = (String) m.get("KeyType");
            }
            b.append(b.isEmpty() ? "" : " ").append(name).append(':').append(type);
        }
        return b.toString();
    }

    private static List<Map<String, Object>> list(Object o) {
        return cast(o);
    }

    @SuppressWarnings("unchecked")
    private static <T> T cast(Object o) {
        return (T) o;
    }
}
