package dev.cairn.backend;

import dev.cairn.aws.BedrockClaude;
import dev.cairn.aws.BedrockFactExtractor;
import dev.cairn.aws.BedrockSummarizer;
import dev.cairn.aws.BedrockTitanEmbedder;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbSessionCacheStore;
import dev.cairn.aws.DynamoDbSessionStore;
import dev.cairn.aws.DynamoDbSyncStore;
import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.aws.OpenSearchVectorIndex.DocumentIds;
import dev.cairn.aws.S3ColdStore;
import dev.cairn.embedded.EmbeddedAdapters;
import dev.cairn.embedded.EmbeddedConfig;
import dev.cairn.embedded.FileColdStore;
import dev.cairn.embedded.SqliteSessionCacheStore;
import dev.cairn.embedded.SqliteSessionStore;
import dev.cairn.embedded.SqliteSyncStore;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.RuleBasedExtractor;
import dev.cairn.model.session.Summarizer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import java.net.URI;
import java.nio.file.Path;
import java.util.Locale;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.retry.RetryMode;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Produces the ports from the adapters {@link BackendConfig} selects. Only the selected adapters are built (the beans
 * are created on first use), so an AWS deployment never opens a SQLite file and the embedded default never needs AWS
 * credentials.
 */
@ApplicationScoped
public class Backends {

    /** One DynamoDB client for every store that uses the table; created on first use only. */
    @Produces
    @ApplicationScoped
    DynamoDbClient dynamo(BackendConfig config) {
        BackendConfig.Dynamodb d = config.aws().dynamodb();
        var builder = DynamoDbClient.builder().httpClient(http()).overrideConfiguration(sdkRetries(config));
        config.aws().region().map(Region::of).ifPresent(builder::region);
        d.endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    @Produces
    @ApplicationScoped
    MemoryStore memoryStore(BackendConfig config, EmbeddedConfig embedded, DynamoDbClient dynamo) {
        return switch (recordStore(config)) {
            case "dynamodb" -> {
                DynamoDbMemoryStore store = new DynamoDbMemoryStore(dynamo, config.aws().dynamodb().table());
                if (config.aws().dynamodb().createTable()) {
                    store.createTableIfMissing();
                }
                yield store;
            }
            default -> EmbeddedAdapters.sqliteStore(embedded);
        };
    }

    /** Sessions live beside memories: the same table in AWS, {@code sessions.db} in the data directory locally. */
    @Produces
    @ApplicationScoped
    SessionStore sessionStore(BackendConfig config, EmbeddedConfig embedded, DynamoDbClient dynamo) {
        return switch (recordStore(config)) {
            case "dynamodb" -> {
                if (config.aws().dynamodb().createTable()) {
                    new DynamoDbMemoryStore(dynamo, config.aws().dynamodb().table()).createTableIfMissing();
                }
                yield new DynamoDbSessionStore(dynamo, config.aws().dynamodb().table());
            }
            default -> new SqliteSessionStore(Path.of(embedded.dataDir()).resolve("sessions.db"));
        };
    }

    /** The session cache tier beside the sessions: the same table in AWS, {@code session-cache.db} locally. */
    @Produces
    @ApplicationScoped
    SessionCacheStore sessionCacheStore(BackendConfig config, EmbeddedConfig embedded, DynamoDbClient dynamo) {
        return switch (recordStore(config)) {
            case "dynamodb" -> {
                if (config.aws().dynamodb().createTable()) {
                    new DynamoDbMemoryStore(dynamo, config.aws().dynamodb().table()).createTableIfMissing();
                }
                String table = config.aws().dynamodb().table();
                yield config.aws().s3().bucket().map(bucket -> new DynamoDbSessionCacheStore(dynamo, table,
                        s3(config), bucket)).orElseGet(() -> new DynamoDbSessionCacheStore(dynamo, table));
            }
            default -> new SqliteSessionCacheStore(Path.of(embedded.dataDir()).resolve("session-cache.db"));
        };
    }

    /**
     * The cold tier: S3 (gzip JSON) in AWS when {@code cairn.aws.s3.bucket} is set, files under the data directory
     * locally. Without a bucket in AWS every cold call answers 503 (archival and restore need the bucket).
     */
    @Produces
    @ApplicationScoped
    ColdStore coldStore(BackendConfig config, EmbeddedConfig embedded) {
        return switch (recordStore(config)) {
            case "dynamodb" -> config.aws().s3().bucket().<ColdStore>map(b -> new S3ColdStore(s3(config), b))
                    .orElseGet(NoColdStore::new);
            default -> new FileColdStore(Path.of(embedded.dataDir()).resolve("cold"));
        };
    }

    /** Stands in when no bucket is configured: every call is refused as unavailable, nothing pretends to work. */
    static final class NoColdStore implements ColdStore {
        private static StoreUnavailable missing() {
            return new StoreUnavailable("the cold store (set cairn.aws.s3.bucket)", java.time.Duration.ofSeconds(60),
                    null);
        }

        @Override
        public void put(dev.cairn.model.memory.Memory memory) {
            throw missing();
        }

        @Override
        public java.util.Optional<dev.cairn.model.memory.Memory> get(dev.cairn.model.id.Id team,
                                                                    dev.cairn.model.id.Id id) {
            throw missing();
        }

        @Override
        public java.util.List<dev.cairn.model.id.Id> list(dev.cairn.model.id.Id team, int limit) {
            throw missing();
        }

        @Override
        public void delete(dev.cairn.model.id.Id team, dev.cairn.model.id.Id id) {
            throw missing();
        }

        @Override
        public java.util.Optional<java.time.Instant> storedAt(dev.cairn.model.id.Id team, dev.cairn.model.id.Id id) {
            throw missing();
        }
    }

    /** The team commit log and its derived state: the same table in AWS, {@code sync.db} locally. */
    @Produces
    @ApplicationScoped
    SyncStore syncStore(BackendConfig config, EmbeddedConfig embedded, DynamoDbClient dynamo) {
        return switch (recordStore(config)) {
            case "dynamodb" -> {
                if (config.aws().dynamodb().createTable()) {
                    new DynamoDbMemoryStore(dynamo, config.aws().dynamodb().table()).createTableIfMissing();
                }
                yield new DynamoDbSyncStore(dynamo, config.aws().dynamodb().table());
            }
            default -> new SqliteSyncStore(Path.of(embedded.dataDir()).resolve("sync.db"));
        };
    }

    void closeSync(@Disposes SyncStore store) throws Exception {
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }

    void closeSessionCache(@Disposes SessionCacheStore store) throws Exception {
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }

    void closeSessions(@Disposes SessionStore store) throws Exception {
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }

    private static String recordStore(BackendConfig config) {
        return choice(config.backend().recordStore(), "cairn.backend.record-store", "sqlite", "dynamodb");
    }

    @Produces
    @ApplicationScoped
    VectorIndex vectorIndex(BackendConfig config, EmbeddedConfig embedded) {
        return switch (choice(config.backend().vectorIndex(), "cairn.backend.vector-index", "lucene", "opensearch")) {
            case "opensearch" -> openSearch(config.aws());
            default -> EmbeddedAdapters.luceneIndex(embedded);
        };
    }

    @Produces
    @ApplicationScoped
    Embedder embedder(BackendConfig config, EmbeddedConfig embedded) {
        return switch (choice(config.backend().embedder(), "cairn.backend.embedder", "onnx", "bedrock")) {
            case "bedrock" -> new BedrockTitanEmbedder(bedrock(config), config.aws().bedrock().dimensions());
            default -> EmbeddedAdapters.onnxEmbedder(embedded);
        };
    }

    @Produces
    @ApplicationScoped
    Summarizer summarizer(BackendConfig config) {
        return switch (choice(config.backend().summarizer(), "cairn.backend.summarizer", "extractive", "bedrock")) {
            case "bedrock" -> new BedrockSummarizer(claude(config));
            default -> new ExtractiveSummarizer();
        };
    }

    @Produces
    @ApplicationScoped
    FactExtractor extractor(BackendConfig config, SecretScanner scanner) {
        return switch (choice(config.backend().extractor(), "cairn.backend.extractor", "rules", "bedrock")) {
            case "bedrock" -> new BedrockFactExtractor(claude(config), scanner);
            default -> new RuleBasedExtractor(scanner);
        };
    }

    private static BedrockClaude claude(BackendConfig config) {
        return new BedrockClaude(bedrock(config), config.aws().bedrock().textModel(),
                config.aws().bedrock().maxTokens());
    }

    private static S3Client s3(BackendConfig config) {
        var builder = S3Client.builder().httpClient(http()).overrideConfiguration(sdkRetries(config));
        config.aws().region().map(Region::of).ifPresent(builder::region);
        config.aws().s3().endpoint().ifPresent(e -> builder.endpointOverride(e).forcePathStyle(true));
        return builder.build();
    }

    private static BedrockRuntimeClient bedrock(BackendConfig config) {
        var builder = BedrockRuntimeClient.builder().httpClient(http()).overrideConfiguration(sdkRetries(config));
        config.aws().region().map(Region::of).ifPresent(builder::region);
        config.aws().bedrock().endpoint().ifPresent(builder::endpointOverride);
        return builder.build();
    }

    /** Index convergence over whichever store and index were chosen (the poller locally, Streams in AWS). */
    @Produces
    @ApplicationScoped
    Indexer indexer(MemoryStore store, VectorIndex index, Embedder embedder) {
        return new Indexer(store, index, embedder);
    }

    void closeStore(@Disposes MemoryStore store) throws Exception {
        if (store instanceof AutoCloseable c) {
            c.close();
        }
    }

    void closeIndex(@Disposes VectorIndex index) throws Exception {
        if (index instanceof AutoCloseable c) {
            c.close();
        }
    }

    private static OpenSearchVectorIndex openSearch(BackendConfig.Aws aws) {
        BackendConfig.Opensearch o = aws.opensearch();
        URI url = o.url().orElseThrow(() -> new IllegalStateException(
                "cairn.aws.opensearch.url is required when cairn.backend.vector-index=opensearch"));
        String ids = choice(o.documentIds(), "cairn.aws.opensearch.document-ids", "custom", "generated");
        var settings = new OpenSearchVectorIndex.Settings(o.index(), o.engine(),
                ids.equals("custom") ? DocumentIds.CUSTOM : DocumentIds.GENERATED,
                choice(o.refresh(), "cairn.aws.opensearch.refresh", "true", "wait_for", "false"),
                o.shards().orElse(null), o.replicas().orElse(null), o.minCandidates());
        String signing = choice(o.signing(), "cairn.aws.opensearch.signing", "none", "aoss", "es");
        if (signing.equals("none")) {
            return OpenSearchVectorIndex.plainHttp(url, settings);
        }
        Region region = aws.region().map(Region::of).orElseThrow(() -> new IllegalStateException(
                "cairn.aws.region is required to sign OpenSearch requests"));
        return OpenSearchVectorIndex.signed(http(), url.getHost(), signing, region,
                DefaultCredentialsProvider.builder().build(), settings);
    }

    /** The SDK's standard retry mode (exponential backoff with jitter, throttling aware) bounded by one timeout. */
    private static ClientOverrideConfiguration sdkRetries(BackendConfig config) {
        return ClientOverrideConfiguration.builder().retryStrategy(RetryMode.STANDARD)
                .apiCallTimeout(config.aws().apiCallTimeout()).build();
    }

    private static SdkHttpClient http() {
        return UrlConnectionHttpClient.create();
    }

    private static String choice(String value, String property, String... allowed) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        for (String a : allowed) {
            if (a.equals(v)) {
                return a;
            }
        }
        throw new IllegalStateException(property + " must be one of " + String.join(", ", allowed) + ", not '"
                + value + "'");
    }
}
