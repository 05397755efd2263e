package dev.cairn.model.sync;

import dev.cairn.model.error.CairnException;
import dev.cairn.model.id.Id;

/**
 * 409: a change through the memories API to the memory of a synced team fact. The fact's truth is the team's commit
 * log; changing only its memory would hide the change from every other client and a rebuild would undo it.
 */
public final class SyncedFactMemory extends CairnException {

    public SyncedFactMemory(Id team, Id memoryId, String verb) {
        super("memory " + memoryId + " is the projection of a synced team fact and cannot be " + verb
                + " through the memories API: change the fact with POST /v1/teams/" + team + "/sync (an upsert or "
                + "delete of its fact_id; GET /v1/teams/" + team + "/changes lists the facts)");
    }

    @Override
    public String kind() {
        return "synced-fact";
    }

    @Override
    public String title() {
        return "Managed by team sync";
    }
}
