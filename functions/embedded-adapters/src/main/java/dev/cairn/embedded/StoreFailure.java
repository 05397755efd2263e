package dev.cairn.embedded;

/**
 * The embedded store failed for a reason that is not the caller's (disk, corruption). Not a domain error: it must
 * surface as a 5xx and in the logs.
 */
public class StoreFailure extends RuntimeException {

    public StoreFailure(String message, Throwable cause) {
        super(message, cause);
    }
}
