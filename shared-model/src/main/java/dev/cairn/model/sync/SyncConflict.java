package dev.cairn.model.sync;

import dev.cairn.model.error.CairnException;
import java.util.List;

/** 409: facts of the delta changed since the client's view of them; nothing was applied. */
public final class SyncConflict extends CairnException {

    /** One fact the client based its change on an older version of. */
    public record Conflict(FactState current, SyncOp proposed, long baseVersion) {}

    private final long currentVersion;
    private final List<Conflict> conflicts;

    public SyncConflict(long currentVersion, List<Conflict> conflicts) {
        super(conflicts.size() + " fact(s) changed since the client's base: pull the changes since its base_version, "
                + "apply them, and retry with the new versions");
        this.currentVersion = currentVersion;
        this.conflicts = List.copyOf(conflicts);
    }

    public long currentVersion() {
        return currentVersion;
    }

    public List<Conflict> conflicts() {
        return conflicts;
    }

    @Override
    public String kind() {
        return "sync-conflict";
    }

    @Override
    public String title() {
        return "Sync conflict";
    }
}
