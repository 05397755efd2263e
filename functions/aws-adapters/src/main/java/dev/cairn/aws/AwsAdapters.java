package dev.cairn.aws;

import dev.cairn.app.Adapter;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.Summarizer;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.enterprise.inject.Typed;
import jakarta.inject.Singleton;
import java.util.Locale;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * The AWS adapters as ports, each under its {@link Adapter} name: DynamoDB (memories, sessions, session cache, sync
 * log in one table; S3 for cold memories and large tool results is {@code aws-s3-adapters}), OpenSearch (vectors + BM25), Bedrock (Titan
 * embeddings, Claude summarizer and extractor). Built on first use only, so a package that also carries the embedded
 * adapters but is configured for them never touches AWS.
 */
@ApplicationScoped
public class AwsAdapters {

    /**
     * The single table, created once where configured (local stand-ins; in AWS the stack owns it). A singleton, not a
     * proxy, so every store of the table that injects it has the table before its first call; typed to its class so it
     * never competes with the selected {@code MemoryStore}.
     */
    @Produces
    @Singleton
    @Typed(DynamoDbMemoryStore.class)
    DynamoDbMemoryStore dynamoDbMemoryStore(DynamoDbClient dynamo, AwsConfig config) {
        DynamoDbMemoryStore store =
                new DynamoDbMemoryStore(dynamo, config.dynamodb().table());
        if (config.dynamodb().createTable()) {
            store.createTableIfMissing();
        }
        return store;
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.DYNAMODB)
    MemoryStore memoryStore(DynamoDbMemoryStore store) {
        return store;
    }

    /** Sessions live beside memories in the same table (the memory store bean created it where configured). */
    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.DYNAMODB)
    SessionStore sessionStore(DynamoDbClient dynamo, DynamoDbMemoryStore table, AwsConfig config) {
        return new DynamoDbSessionStore(dynamo, config.dynamodb().table());
    }

    /**
     * Tool results over DynamoDB's item size go to S3 when a bucket is configured (otherwise 413 above 300 KB). The S3
     * side lives in {@code aws-s3-adapters}: a bucket configured for a package without it is a packaging mistake, said at
     * the first use rather than answered with 413.
     */
    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.DYNAMODB)
    SessionCacheStore sessionCacheStore(
            DynamoDbClient dynamo, DynamoDbMemoryStore table, Instance<Blobs> blobs, AwsConfig config) {
        String name = config.dynamodb().table();
        if (config.s3().bucket().isEmpty()) {
            return new DynamoDbSessionCacheStore(dynamo, name);
        }
        if (!blobs.isResolvable()) {
            throw new IllegalStateException("cairn.aws.s3.bucket is set, but this package has no S3 adapters"
                    + " (cairn-aws-s3-adapters) for large tool results");
        }
        return new DynamoDbSessionCacheStore(dynamo, name, blobs.get());
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.DYNAMODB)
    SyncStore syncStore(DynamoDbClient dynamo, DynamoDbMemoryStore table, AwsConfig config) {
        return new DynamoDbSyncStore(dynamo, config.dynamodb().table());
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.OPENSEARCH)
    VectorIndex vectorIndex(OpenSearchHttp openSearch, Instance<DynamoDbClient> dynamo, AwsConfig config) {
        OpenSearchVectorIndex.Settings settings = settings(config.opensearch());
        // generated ids (Serverless): each memory's document ids are recorded beside it in the table, so replacing or
        // removing a version never waits for a search to see it
        return settings.documentIds() == OpenSearchVectorIndex.DocumentIds.GENERATED
                ? new OpenSearchVectorIndex(
                        openSearch,
                        settings,
                        new DynamoDbDocumentLedger(
                                dynamo.get(), config.dynamodb().table()))
                : new OpenSearchVectorIndex(openSearch, settings);
    }

    static OpenSearchVectorIndex.Settings settings(AwsConfig.Opensearch o) {
        return new OpenSearchVectorIndex.Settings(
                o.index(),
                o.engine().name().toLowerCase(Locale.ROOT),
                o.documentIds(),
                o.refresh().name().toLowerCase(Locale.ROOT),
                o.shards().orElse(null),
                o.replicas().orElse(null),
                o.minCandidates());
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.BEDROCK)
    Embedder embedder(BedrockRuntimeClient bedrock, AwsConfig config) {
        return new BedrockTitanEmbedder(bedrock, config.bedrock().dimensions());
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.BEDROCK)
    Summarizer summarizer(BedrockRuntimeClient bedrock, AwsConfig config) {
        return new BedrockSummarizer(claude(bedrock, config));
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.BEDROCK)
    FactExtractor extractor(BedrockRuntimeClient bedrock, SecretScanner scanner, AwsConfig config) {
        return new BedrockFactExtractor(claude(bedrock, config), scanner);
    }

    private static BedrockClaude claude(BedrockRuntimeClient bedrock, AwsConfig config) {
        return new BedrockClaude(
                bedrock, config.bedrock().textModel(), config.bedrock().maxTokens());
    }

    void closeIndex(@Disposes @Adapter(Adapter.OPENSEARCH) VectorIndex index) {
        ((OpenSearchVectorIndex) index).close();
    }
}
