package dev.cairn.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

class DynamoDbMemoryStoreOutageTest {

    @Test
    void anUnreachableTable_shouldSurfaceAsStoreUnavailable_afterTheSdksOwnRetries() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0)) {
            closedPort = s.getLocalPort();
        }
        DynamoDbClient client = DynamoDbClient.builder()
                .endpointOverride(URI.create("http://127.0.0.1:" + closedPort))
                .region(Region.US_EAST_1)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create("x", "y")))
                .httpClient(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofMillis(200))
                        .build())
                .overrideConfiguration(ClientOverrideConfiguration.builder()
                        .retryStrategy(RetryMode.STANDARD)
                        .build())
                .build();
        DynamoDbMemoryStore store = new DynamoDbMemoryStore(client, "cairn-memories");

        assertThatThrownBy(() -> store.get(new Id("acme"), new Id("m1")))
                .isInstanceOf(StoreUnavailable.class)
                .hasMessageContaining("record store")
                .satisfies(e -> assertThat(((StoreUnavailable) e).retryAfter()).isPositive());
    }
}
