package dev.cairn.model.error;

import java.time.Duration;

/**
 * A backing service (record store, index, cold store, embedding model) did not answer after the client's own
 * retries. Nothing was changed by the failed call; the caller may retry after {@link #retryAfter()}.
 */
public class StoreUnavailable extends CairnException {

    private final Duration retryAfter;

    public StoreUnavailable(String what, Duration retryAfter, Throwable cause) {
        super(what + " is unavailable right now; retry in " + Math.max(1, retryAfter.toSeconds()) + " s");
        initCause(cause);
        this.retryAfter = retryAfter;
    }

    public Duration retryAfter() {
        return retryAfter;
    }

    @Override
    public String kind() {
        return "service-unavailable";
    }

    @Override
    public String title() {
        return "Service unavailable";
    }
}
