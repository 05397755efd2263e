package dev.cairn.aws;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.model.index.Indexer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * Lambda entry point of the DynamoDB Streams indexer ({@code dev.cairn.aws.StreamIndexerFunction::handleRequest}).
 * Plain Java, no framework: it only needs the three adapters, and a small handler starts fast. Its jar ships inside
 * the recall function's zip ({@code lib/}), so the stack can point a second function at the same artifact.
 *
 * <p>Configuration, from the environment (the same names as the recall function's properties):
 * {@code CAIRN_AWS_REGION}, {@code CAIRN_AWS_DYNAMODB_TABLE}, {@code CAIRN_AWS_OPENSEARCH_URL},
 * {@code CAIRN_AWS_OPENSEARCH_SIGNING} ({@code aoss} in AWS), {@code CAIRN_AWS_OPENSEARCH_INDEX},
 * {@code CAIRN_AWS_OPENSEARCH_ENGINE}, {@code CAIRN_AWS_OPENSEARCH_DOCUMENT_IDS}, {@code CAIRN_AWS_OPENSEARCH_REFRESH},
 * {@code CAIRN_AWS_BEDROCK_DIMENSIONS}; endpoints ({@code CAIRN_AWS_DYNAMODB_ENDPOINT},
 * {@code CAIRN_AWS_BEDROCK_ENDPOINT}) only for stand-ins.
 */
public final class StreamIndexerFunction implements RequestStreamHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DynamoDbStreamIndexing indexing;

    /** Lambda's constructor: configuration from the environment. */
    public StreamIndexerFunction() {
        this(System.getenv());
    }

    public StreamIndexerFunction(Map<String, String> env) {
        this.indexing = new DynamoDbStreamIndexing(indexer(env));
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        DynamoDbStreamIndexing.Outcome outcome = indexing.handle(JSON.readTree(input));
        JSON.writeValue(output, outcome.response());
    }

    private static Indexer indexer(Map<String, String> env) {
        Region region = Region.of(required(env, "CAIRN_AWS_REGION"));
        ClientOverrideConfiguration retries = ClientOverrideConfiguration.builder().retryStrategy(RetryMode.STANDARD)
                .apiCallTimeout(Duration.ofSeconds(10)).build();
        var dynamo = DynamoDbClient.builder().region(region).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(retries);
        optional(env, "CAIRN_AWS_DYNAMODB_ENDPOINT").map(URI::create).ifPresent(dynamo::endpointOverride);
        var bedrock = BedrockRuntimeClient.builder().region(region).httpClient(UrlConnectionHttpClient.create())
                .overrideConfiguration(retries);
        optional(env, "CAIRN_AWS_BEDROCK_ENDPOINT").map(URI::create).ifPresent(bedrock::endpointOverride);

        var settings = new OpenSearchVectorIndex.Settings(
                optional(env, "CAIRN_AWS_OPENSEARCH_INDEX").orElse("cairn-memories"),
                optional(env, "CAIRN_AWS_OPENSEARCH_ENGINE").orElse("faiss"),
                optional(env, "CAIRN_AWS_OPENSEARCH_DOCUMENT_IDS").orElse("generated").equals("custom")
                        ? OpenSearchVectorIndex.DocumentIds.CUSTOM : OpenSearchVectorIndex.DocumentIds.GENERATED,
                optional(env, "CAIRN_AWS_OPENSEARCH_REFRESH").orElse("false"), null, null, 200);
        URI url = URI.create(required(env, "CAIRN_AWS_OPENSEARCH_URL"));
        String signing = optional(env, "CAIRN_AWS_OPENSEARCH_SIGNING").orElse("aoss");
        OpenSearchVectorIndex index = signing.equals("none") ? OpenSearchVectorIndex.plainHttp(url, settings)
                : OpenSearchVectorIndex.signed(UrlConnectionHttpClient.create(), url.getHost(), signing, region,
                DefaultCredentialsProvider.builder().build(), settings);
        int dimensions = Integer.parseInt(optional(env, "CAIRN_AWS_BEDROCK_DIMENSIONS").orElse("1024"));
        return new Indexer(new DynamoDbMemoryStore(dynamo.build(),
                optional(env, "CAIRN_AWS_DYNAMODB_TABLE").orElse("cairn-memories")), index,
                new BedrockTitanEmbedder(bedrock.build(), dimensions));
    }

    private static String required(Map<String, String> env, String name) {
        return optional(env, name).orElseThrow(() -> new IllegalStateException(name + " is not set"));
    }

    private static Optional<String> optional(Map<String, String> env, String name) {
        return Optional.ofNullable(env.get(name)).filter(v -> !v.isBlank());
    }
}
