package dev.cairn.model.decay;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.NotFound;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.identity.Caller;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.MemoryStore;
import java.lang.System.Logger.Level;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * {@code POST /v1/teams/{team}/memories/{id}:restore}: brings an archived memory back from the cold tier — its full
 * content, active again, one version on (a conditional write over the stub), indexed — then drops the cold copy.
 * A restored memory counts as used now, so the decay job does not archive it again at once.
 */
public final class Restore {

    private static final System.Logger LOG = System.getLogger(Restore.class.getName());

    private final MemoryStore store;
    private final ColdStore cold;
    private final Indexer indexer;
    private final Clock clock;

    public Restore(MemoryStore store, ColdStore cold, Indexer indexer, Clock clock) {
        this.store = store;
        this.cold = cold;
        this.indexer = indexer;
        this.clock = clock;
    }

    /** The restored memory as it now is: active, one version on, its restore counted as an access. */
    public Memory restore(Caller caller, Id team, Id id) {
        caller.requireMember(team);
        Memory stub = store.get(team, id)
                .filter(m -> m.visibleTo(caller.user()))
                .orElseThrow(() -> new NotFound("memory " + id + " in team " + team));
        if (stub.state() != MemoryState.ARCHIVED) {
            // the detail reads "id names memory m1, which is active: only an archived memory can be restored"
            throw new InvalidInput(
                    "id",
                    "names memory " + id + ", which is " + stub.state().wire()
                            + ": only an archived memory can be restored");
        }
        // archived in place (PATCH state "archived"): the record still holds everything, there is no cold copy to read
        boolean inPlace = !stub.content().isEmpty();
        if (!inPlace && cold == null) {
            throw new StoreUnavailable("the cold store (no bucket configured)", Duration.ofSeconds(60), null);
        }
        Memory copy =
                inPlace ? stub : cold.get(team, id).orElseThrow(() -> new NotFound("the cold copy of memory " + id));
        Memory back = new Memory(
                stub.id(),
                stub.team(),
                stub.user(),
                stub.scope(),
                copy.type(),
                copy.content(),
                copy.tags(),
                copy.importance(),
                copy.confidence(),
                copy.occurredAt(),
                copy.createdAt(),
                stub.lastAccessedAt(),
                stub.accessCount(),
                copy.sourceSessionId(),
                copy.evidence(),
                stub.version() + 1,
                MemoryState.ACTIVE,
                copy.supersededBy(),
                copy.validTo(),
                copy.context());
        store.replace(back);
        Instant now = clock.instant();
        store.recordAccess(team, List.of(id), now); // restored = used now: the next decay run starts from here
        try {
            indexer.index(List.of(back));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "indexing of restored memory " + id + " deferred: " + e);
        }
        if (!inPlace) {
            cold.delete(team, id);
        }
        return back.accessedAt(now);
    }
}
