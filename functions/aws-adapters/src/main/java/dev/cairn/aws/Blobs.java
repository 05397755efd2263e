package dev.cairn.aws;

import java.util.Optional;

/**
 * Large opaque bodies kept beside the table, by key: tool results over DynamoDB's item size. An interface here, its S3
 * implementation in {@code aws-s3-adapters}, so the functions that never store a large body do not carry the S3 SDK
 * (README § Lambda packages). Keys are built by the caller from validated ids and digests only.
 */
public interface Blobs {

    void put(String key, byte[] body, String contentType);

    /** The body, or empty when there is none under {@code key}. */
    Optional<byte[]> get(String key);

    /** Idempotent: deleting what is not there succeeds. */
    void delete(String key);
}
