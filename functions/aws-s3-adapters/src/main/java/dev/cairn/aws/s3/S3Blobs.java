package dev.cairn.aws.s3;

import dev.cairn.aws.Blobs;
import java.util.Optional;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;

/** {@link Blobs} in one S3 bucket; outages become {@code StoreUnavailable} (503) through {@link S3Calls}. */
public final class S3Blobs implements Blobs {

    private final S3Client s3;
    private final String bucket;

    public S3Blobs(S3Client s3, String bucket) {
        this.s3 = s3;
        this.bucket = bucket;
    }

    @Override
    public void put(String key, byte[] body, String contentType) {
        S3Calls.guarded(() ->
                s3.putObject(b -> b.bucket(bucket).key(key).contentType(contentType), RequestBody.fromBytes(body)));
    }

    @Override
    public Optional<byte[]> get(String key) {
        return S3Calls.guarded(() -> {
            try {
                return Optional.of(
                        s3.getObjectAsBytes(b -> b.bucket(bucket).key(key)).asByteArray());
            } catch (NoSuchKeyException e) {
                return Optional.empty();
            }
        });
    }

    @Override
    public void delete(String key) {
        S3Calls.guarded(() -> s3.deleteObject(b -> b.bucket(bucket).key(key)));
    }
}
