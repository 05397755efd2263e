package dev.cairn.model.error;

/**
 * A conditional write met a different version than the caller expected. The write did not happen: Cairn never
 * silently overwrites a newer record.
 */
public class VersionConflict extends CairnException {

    private final long expected;
    private final long actual;

    public VersionConflict(String what, long expected, long actual) {
        super(what + " is at version " + actual + ", not the expected version " + expected
                + "; read it again and retry with the current version");
        this.expected = expected;
        this.actual = actual;
    }

    public long expected() {
        return expected;
    }

    public long actual() {
        return actual;
    }

    @Override
    public String kind() {
        return "version-conflict";
    }

    @Override
    public String title() {
        return "Version conflict";
    }
}
