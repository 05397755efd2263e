package dev.cairn.it;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.DynamoDbSessionCacheStore;
import dev.cairn.aws.s3.S3Blobs;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionCacheStoreContract;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The session-cache-store contract on dynalite, with S3Mock holding results too large for an item. The tests and their
 * assertions are inherited from {@link SessionCacheStoreContract}; this class only supplies the backend.
 */
@ExtendWith({Dynalite.class, S3Mock.class})
class DynamoDbSessionCacheStoreIT extends SessionCacheStoreContract {

    private static DynamoDbSessionCacheStore store;

    @BeforeAll
    static void createTable() {
        new DynamoDbMemoryStore(Dynalite.client(), "cairn-cache").createTableIfMissing();
        S3Mock.client().createBucket(b -> b.bucket("cairn-cache-blobs"));
        store = new DynamoDbSessionCacheStore(
                Dynalite.client(), "cairn-cache", new S3Blobs(S3Mock.client(), "cairn-cache-blobs"));
    }

    @Override
    protected SessionCacheStore store() {
        return store;
    }
}
