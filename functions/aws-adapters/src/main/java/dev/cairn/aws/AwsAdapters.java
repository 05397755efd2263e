package dev.cairn.aws;

import dev.cairn.app.Adapter;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.ColdStore;
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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.opensearch.client.transport.OpenSearchTransport;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The AWS adapters as ports, each under its {@link Adapter} name: DynamoDB (memories, sessions, session cache, sync
 * log in one table) with S3 (cold memories, large tool results), OpenSearch (vectors + BM25), Bedrock (Titan
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

    /** Tool results over DynamoDB's item size go to S3 when a bucket is configured (otherwise 413 above 300 KB). */
    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.DYNAMODB)
    SessionCacheStore sessionCacheStore(
            DynamoDbClient dynamo, DynamoDbMemoryStore table, Instance<S3Client> s3, AwsConfig config) {
        String name = config.dynamodb().table();
        return config.s3()
                .bucket()
                .map(bucket -> new DynamoDbSessionCacheStore(dynamo, name, s3.get(), bucket))
                .orElseGet(() -> new DynamoDbSessionCacheStore(dynamo, name));
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.DYNAMODB)
    SyncStore syncStore(DynamoDbClient dynamo, DynamoDbMemoryStore table, AwsConfig config) {
        return new DynamoDbSyncStore(dynamo, config.dynamodb().table());
    }

    /**
     * The cold tier: S3 (gzip JSON) when {@code cairn.aws.s3.bucket} is set. Without a bucket every cold call answers
     * 503 (archival and restore need the bucket).
     */
    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.DYNAMODB)
    ColdStore coldStore(Instance<S3Client> s3, AwsConfig config) {
        return config.s3()
                .bucket()
                .<ColdStore>map(b -> new S3ColdStore(s3.get(), b))
                .orElseGet(NoColdStore::new);
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.OPENSEARCH)
    VectorIndex vectorIndex(OpenSearchTransport transport, AwsConfig config) {
        return new OpenSearchVectorIndex(transport, settings(config.opensearch()));
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

    /** Stands in when no bucket is configured: every call is refused as unavailable, nothing pretends to work. */
    static final class NoColdStore implements ColdStore {
        private static StoreUnavailable missing() {
            return new StoreUnavailable("the cold store (set cairn.aws.s3.bucket)", Duration.ofSeconds(60), null);
        }

        @Override
        public void put(Memory memory) {
            throw missing();
        }

        @Override
        public Optional<Memory> get(Id team, Id id) {
            throw missing();
        }

        @Override
        public List<Id> list(Id team, int limit) {
            throw missing();
        }

        @Override
        public void delete(Id team, Id id) {
            throw missing();
        }

        @Override
        public Optional<Instant> storedAt(Id team, Id id) {
            throw missing();
        }
    }
}
