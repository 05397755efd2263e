package dev.cairn.model.sync;

import dev.cairn.model.error.CairnException;
import dev.cairn.model.id.Id;

/** 422: the client already used this idempotency key for another delta; nothing of this one was applied. */
public final class IdempotencyKeyReused extends CairnException {

    public IdempotencyKeyReused(Id clientId, String key, long version) {
        super("idempotency_key '" + key + "' was already used by client '" + clientId + "' for a different delta "
                + "(committed as version " + version + "); nothing of this delta was applied: send a new delta with "
                + "a new key");
    }

    @Override
    public String kind() {
        return "idempotency-key-reused";
    }

    @Override
    public String title() {
        return "Idempotency key reused";
    }
}
