package dev.cairn.it;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.MemoryStoreContract;
import org.junit.jupiter.api.BeforeAll;
import org.testcontainers.junit.jupiter.Testcontainers;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/** The store contract on LocalStack's DynamoDB, where a Docker engine exists (skipped cleanly elsewhere). The tests and their
 * assertions are inherited from the contract class; this class only supplies the backend.
 */
@Testcontainers(disabledWithoutDocker = true)
class LocalStackDynamoDbIT extends MemoryStoreContract {

    private static DynamoDbMemoryStore store;

    @BeforeAll
    static void start() {
        var localstack = LocalStack.ensureStarted();
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(localstack.getEndpoint())
                .region(Region.of(localstack.getRegion()))
                .httpClient(UrlConnectionHttpClient.create())
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(localstack.getAccessKey(), localstack.getSecretKey())))
                .build();
        store = new DynamoDbMemoryStore(client, "cairn-memories");
        store.createTableIfMissing();
    }

    @Override
    protected MemoryStore store() {
        return store;
    }
}
