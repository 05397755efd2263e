package dev.cairn.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * 409 of {@code POST /v1/teams/{team}/sync} under the reject policy: facts of the delta changed after its
 * {@code base_version}. Nothing was applied; pull the changes since the base, merge, and send again.
 */
public final class SyncConflictException extends CairnApiException {

    private final long currentVersion;
    private final List<Sync.Conflict> conflicts;

    public SyncConflictException(
            String type,
            String title,
            String detail,
            long currentVersion,
            List<Sync.Conflict> conflicts,
            JsonNode body) {
        super(409, type, title, detail, List.of(), body);
        this.currentVersion = currentVersion;
        this.conflicts = List.copyOf(conflicts);
    }

    /** The team's version when the delta was refused. */
    public long currentVersion() {
        return currentVersion;
    }

    public List<Sync.Conflict> conflicts() {
        return conflicts;
    }
}
