package dev.cairn.aws.s3;

import dev.cairn.app.Adapter;
import dev.cairn.aws.AwsClients;
import dev.cairn.aws.AwsConfig;
import dev.cairn.aws.Blobs;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.ColdStore;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The S3 client and what is built on it: the cold tier ({@link ColdStore} under the {@code dynamodb} record store's
 * name, as the rest of the AWS record stores) and the {@link Blobs} the DynamoDB session cache store puts large tool
 * results in. Only the functions that use either package this module (session-summarize, decay-job, the stream
 * indexer, which removes the cold copy of a deleted memory, and the local server); the rest leave the S3 SDK out.
 */
@ApplicationScoped
public class S3Adapters {

    /** On the one SDK HTTP client of {@link AwsClients}; a stand-in endpoint switches to path-style addressing. */
    @Produces
    @ApplicationScoped
    S3Client s3(AwsConfig config, SdkHttpClient http) {
        var builder = S3Client.builder().httpClient(http).overrideConfiguration(AwsClients.sdkRetries(config));
        config.region().map(Region::of).ifPresent(builder::region);
        config.s3().endpoint().ifPresent(e -> builder.endpointOverride(e).forcePathStyle(true));
        return builder.build();
    }

    void closeS3(@Disposes S3Client client) {
        client.close();
    }

    /**
     * Not a port (an AWS-internal seam): the session cache store looks it up by type, and asks for it only when a
     * bucket is configured.
     */
    @Produces
    @ApplicationScoped
    @Unremovable
    Blobs blobs(S3Client s3, AwsConfig config) {
        return new S3Blobs(
                s3,
                config.s3().bucket().orElseThrow(() -> new IllegalStateException("blobs need cairn.aws.s3.bucket")));
    }

    /**
     * The cold tier: S3 (gzip JSON) when {@code cairn.aws.s3.bucket} is set. Without a bucket archival and restore
     * answer 503, while deleting a cold copy succeeds (there is none anywhere).
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

    /** Stands in when no bucket is configured: nothing pretends to be archived or restorable. */
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

        /** Without a bucket no cold copy was ever written, so a delete's cascade has nothing to remove. */
        @Override
        public void delete(Id team, Id id) {}

        @Override
        public Optional<Instant> storedAt(Id team, Id id) {
            throw missing();
        }
    }
}
