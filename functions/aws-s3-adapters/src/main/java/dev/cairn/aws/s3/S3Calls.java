package dev.cairn.aws.s3;

import dev.cairn.model.error.StoreUnavailable;
import java.time.Duration;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.s3.model.S3Exception;

/** As {@code DynamoCalls} (aws-adapters) for S3: unreachable, throttled or 5xx after the SDK's retries → {@link StoreUnavailable}. */
public final class S3Calls {

    private S3Calls() {}

    public static <T> T guarded(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (SdkClientException e) {
            throw new StoreUnavailable("the blob store", Duration.ofSeconds(2), e);
        } catch (S3Exception e) {
            if (e.isThrottlingException() || e.statusCode() >= 500) {
                throw new StoreUnavailable("the blob store", Duration.ofSeconds(5), e);
            }
            throw e;
        }
    }
}
