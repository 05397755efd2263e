package dev.cairn.aws;

import dev.cairn.model.error.StoreUnavailable;
import java.time.Duration;
import java.util.function.Supplier;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.DynamoDbException;

/**
 * Runs one DynamoDB call, turning "DynamoDB did not answer, even after the SDK's retries" (network errors,
 * throttling, 5xx) into {@link StoreUnavailable}, which the API answers with 503 and Retry-After. A failed condition
 * or a validation error is not an outage and passes through.
 */
final class DynamoCalls {

    private DynamoCalls() {}

    static <T> T guarded(Supplier<T> operation) {
        try {
            return operation.get();
        } catch (ConditionalCheckFailedException e) {
            throw e;
        } catch (SdkClientException e) {
            throw new StoreUnavailable("the record store", Duration.ofSeconds(2), e);
        } catch (DynamoDbException e) {
            if (e.isThrottlingException() || e.statusCode() >= 500) {
                throw new StoreUnavailable("the record store", Duration.ofSeconds(5), e);
            }
            throw e;
        }
    }
}
