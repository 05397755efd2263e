package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbSessionCacheStore;
import dev.cairn.aws.DynamoDbSessionStore;
import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.aws.s3.S3ColdStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.DeletionCascadeContract;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.VectorIndex;
import java.net.URI;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The deletion cascade on the local stand-ins of the AWS stores, each a real server in its own process: dynalite
 * (records, sessions, context snapshots), an OpenSearch node with k-NN, S3Mock with a versioned bucket as the stack
 * deploys it. Besides the contract's reads, the table and the bucket are read raw: no item of the memory in its
 * partition, and no version or delete marker of its cold copy.
 */
@ExtendWith({Dynalite.class, S3Mock.class, OpenSearchNode.class})
class AwsDeletionCascadeIT extends DeletionCascadeContract {

    private static final String NAME = "cairn-cascade";
    private static DynamoDbMemoryStore store;
    private static OpenSearchVectorIndex index;
    private static S3ColdStore cold;
    private static DynamoDbSessionStore sessions;
    private static DynamoDbSessionCacheStore cache;

    @BeforeAll
    static void open() {
        store = new DynamoDbMemoryStore(Dynalite.client(), NAME);
        store.createTableIfMissing();
        S3Mock.client().createBucket(b -> b.bucket(NAME));
        S3Mock.client().putBucketVersioning(b -> b.bucket(NAME).versioningConfiguration(v -> v.status("Enabled")));
        cold = new S3ColdStore(S3Mock.client(), NAME);
        index = OpenSearchVectorIndex.plainHttp(
                URI.create(OpenSearchNode.url()),
                new OpenSearchVectorIndex.Settings(
                        NAME, "lucene", OpenSearchVectorIndex.DocumentIds.CUSTOM, "true", 1, 0, 200));
        sessions = new DynamoDbSessionStore(Dynalite.client(), NAME);
        cache = new DynamoDbSessionCacheStore(Dynalite.client(), NAME);
    }

    @Override
    protected void assertNoCopyLeftInTheBackend(Id team, Id memory) {
        var items = Dynalite.client()
                .query(b -> b.tableName(NAME)
                        .consistentRead(true)
                        .keyConditionExpression("pk = :pk")
                        .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("T#" + team.value()))))
                .items();
        assertThat(items)
                .as("items of the memory in its team's partition")
                .noneMatch(i -> i.get("sk").s().endsWith("#" + memory.value()));
        String key = "teams/" + team.value() + "/memories/" + memory.value() + ".json.gz";
        var versions = S3Mock.client().listObjectVersions(b -> b.bucket(NAME).prefix(key));
        assertThat(versions.versions()).as("versions of the cold copy").isEmpty();
        assertThat(versions.deleteMarkers())
                .as("delete markers of the cold copy")
                .isEmpty();
    }

    @Override
    protected MemoryStore memoryStore() {
        return store;
    }

    @Override
    protected VectorIndex index() {
        return index;
    }

    @Override
    protected ColdStore cold() {
        return cold;
    }

    @Override
    protected SessionStore sessionStore() {
        return sessions;
    }

    @Override
    protected SessionCacheStore cacheStore() {
        return cache;
    }
}
