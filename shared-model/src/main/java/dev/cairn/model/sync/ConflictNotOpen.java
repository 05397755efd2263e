package dev.cairn.model.sync;

import dev.cairn.model.error.CairnException;

/**
 * 409: a queued conflict that can no longer be resolved as asked: it is resolved already, or its fact changed after it
 * was queued. Taking the proposed value then would overwrite a change nobody saw beside it (a trial's resolve of an
 * old conflict undid a newer upsert without a word).
 */
public final class ConflictNotOpen extends CairnException {

    public ConflictNotOpen(String message) {
        super(message);
    }

    @Override
    public String kind() {
        return "conflict-not-open";
    }

    @Override
    public String title() {
        return "Conflict cannot be resolved so";
    }
}
