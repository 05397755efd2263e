package dev.cairn.aws;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.net.URI;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The SDK clients (S3's is in {@code aws-s3-adapters}), each built once per process on first use and shared by every adapter that needs it; region,
 * endpoints and timeouts come from {@link AwsConfig} only (the SDK's own chains fill in what it leaves unset:
 * credentials, and the region in Lambda).
 */
@ApplicationScoped
public class AwsClients {

    /** One small HTTP client for every SDK client: url-connection (no extra threads; fine for Lambda). */
    @Produces
    @ApplicationScoped
    SdkHttpClient http() {
        return UrlConnectionHttpClient.create();
    }

    void closeHttp(@Disposes SdkHttpClient http) {
        http.close();
    }

    @Produces
    @ApplicationScoped
    DynamoDbClient dynamo(AwsConfig config, SdkHttpClient http) {
        var builder = DynamoDbClient.builder().httpClient(http).overrideConfiguration(sdkRetries(config));
        config.region().map(Region::of).ifPresent(builder::region);
        config.dynamodb().endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    void closeDynamo(@Disposes DynamoDbClient client) {
        client.close();
    }

    @Produces
    @ApplicationScoped
    BedrockRuntimeClient bedrock(AwsConfig config, SdkHttpClient http) {
        var builder = BedrockRuntimeClient.builder().httpClient(http).overrideConfiguration(sdkRetries(config));
        config.region().map(Region::of).ifPresent(builder::region);
        config.bedrock().endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    void closeBedrock(@Disposes BedrockRuntimeClient client) {
        client.close();
    }

    /**
     * Plain HTTP to a local node, or SigV4-signed ({@code aoss} or {@code es}) with the SDK's credentials chain; both
     * over the one SDK HTTP client. A singleton, not application scoped: OpenSearchHttp is a final class, which a client
     * proxy could not wrap without Quarkus rewriting it.
     */
    @Produces
    @Singleton
    OpenSearchHttp openSearch(AwsConfig config, SdkHttpClient http) {
        AwsConfig.Opensearch o = config.opensearch();
        URI url = o.url()
                .orElseThrow(() -> new IllegalStateException(
                        "cairn.aws.opensearch.url is required when cairn.backend.vector-index=opensearch"));
        if (o.signing() == AwsConfig.Signing.NONE) {
            return OpenSearchHttp.plain(http, url);
        }
        Region region = config.region()
                .map(Region::of)
                .orElseThrow(() -> new IllegalStateException(
                        "cairn.aws.region is required to sign OpenSearch requests (cairn.aws.opensearch.signing="
                                + o.signing().name().toLowerCase(java.util.Locale.ROOT) + ")"));
        return OpenSearchHttp.signed(
                http,
                url.getHost(),
                o.signing().name().toLowerCase(java.util.Locale.ROOT),
                region,
                DefaultCredentialsProvider.builder().build());
    }

    void closeOpenSearch(@Disposes OpenSearchHttp openSearch) {
        openSearch.close();
    }

    /** The SDK's standard retry mode (exponential backoff with jitter, throttling aware) bounded by one timeout. */
    public static ClientOverrideConfiguration sdkRetries(AwsConfig config) {
        return ClientOverrideConfiguration.builder()
                .retryStrategy(RetryMode.STANDARD)
                .apiCallTimeout(config.apiCallTimeout())
                .build();
    }
}
