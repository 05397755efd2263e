package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbSessionCacheStore;
import dev.cairn.aws.s3.S3Blobs;
import dev.cairn.aws.s3.S3ColdStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionCacheStoreContract;
import dev.cairn.model.testkit.Memories;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * LocalStack's DynamoDB <em>and</em> S3 together, where a Docker engine exists (skipped cleanly elsewhere, as on the
 * machines this was written on): the session-cache contract with results over an item's size in S3 (its
 * {@code aLargeResult_shouldRoundTrip} goes through {@link S3Blobs}), and the cold tier's put, get, list and delete.
 */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackS3IT extends SessionCacheStoreContract {

    private static final String TABLE = "cairn-localstack-cache";
    private static final String BUCKET = "cairn-localstack";
    private static DynamoDbSessionCacheStore store;
    private static S3ColdStore cold;

    @BeforeAll
    static void start() {
        var localstack = LocalStack.ensureStarted();
        var credentials = StaticCredentialsProvider.create(
                AwsBasicCredentials.create(localstack.getAccessKey(), localstack.getSecretKey()));
        DynamoDbClient dynamo = DynamoDbClient.builder()
                .endpointOverride(localstack.getEndpoint())
                .region(Region.of(localstack.getRegion()))
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(credentials)
                .build();
        S3Client s3 = S3Client.builder()
                .endpointOverride(localstack.getEndpoint())
                .forcePathStyle(true)
                .region(Region.of(localstack.getRegion()))
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(credentials)
                .build();
        new DynamoDbMemoryStore(dynamo, TABLE).createTableIfMissing();
        s3.createBucket(b -> b.bucket(BUCKET));
        store = new DynamoDbSessionCacheStore(dynamo, TABLE, new S3Blobs(s3, BUCKET));
        cold = new S3ColdStore(s3, BUCKET);
    }

    @Override
    protected SessionCacheStore store() {
        return store;
    }

    @Test
    void theColdTier_shouldPutGetListAndDelete_onLocalStacksS3() {
        Memory m = Memories.memory()
                .team("acme")
                .id("m1")
                .content("Deploys happen on Tuesdays")
                .build();
        cold.put(m);
        assertThat(cold.get(m.team(), m.id()).orElseThrow().content()).isEqualTo(m.content());
        assertThat(cold.list(m.team(), 10)).containsExactly(m.id());
        assertThat(cold.storedAt(m.team(), m.id())).isPresent();

        cold.delete(m.team(), m.id());

        assertThat(cold.get(m.team(), m.id())).isEmpty();
        assertThat(cold.list(new Id("acme"), 10)).isEmpty();
    }
}
