package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The materialized state as a pure function of the log: what the materializer converges to, what a rebuild writes,
 * and what a client that applies the change feed in order ends with. A commit whose idempotency key appeared in an
 * earlier commit is void. A fact's version is the team version of the commit that last changed it, whatever the ops
 * say (so logs written before that rule replay to the same clock).
 */
public final class SyncReplay {

    private SyncReplay() {}

    public static Map<Id, FactState> replay(List<Commit> log) {
        Map<Id, FactState> facts = new LinkedHashMap<>();
        Set<String> keys = new HashSet<>();
        for (Commit c : log) {
            if (!keys.add(c.claimKey())) {
                continue;
            }
            for (SyncOp op : c.ops()) {
                facts.put(op.factId(), apply(c.team(), facts.get(op.factId()), op, c.version()));
            }
        }
        return facts;
    }

    /** One op applied to a fact's previous state (null when the fact never existed). */
    public static FactState apply(Id team, FactState prev, SyncOp op, long commit) {
        if (op.kind() == SyncOp.Kind.DELETE) {
            return prev == null
                    ? new FactState(
                            team,
                            op.factId(),
                            commit,
                            true,
                            "",
                            MemoryType.FACT,
                            List.of(),
                            1.0,
                            commit,
                            memoryId(team, op.factId(), commit))
                    : new FactState(
                            team,
                            op.factId(),
                            commit,
                            true,
                            prev.content(),
                            prev.type(),
                            prev.tags(),
                            prev.confidence(),
                            commit,
                            prev.memoryId());
        }
        boolean reborn = prev == null || prev.deleted();
        return new FactState(
                team,
                op.factId(),
                commit,
                false,
                op.content(),
                op.type() != null ? op.type() : prev != null ? prev.type() : MemoryType.FACT,
                op.tags() != null ? op.tags() : prev != null ? prev.tags() : List.of(),
                op.confidence() != null ? op.confidence() : prev != null ? prev.confidence() : 1.0,
                commit,
                reborn ? memoryId(team, op.factId(), commit) : prev.memoryId());
    }

    /**
     * The team memory a fact is projected to: a function of the fact and the commit that (re)created it, so a fact
     * deleted and created again is a new memory, and every replica computes the same id. 26 characters, within the id
     * grammar, prefixed {@code tf} so it cannot be mistaken for a ULID.
     */
    public static Id memoryId(Id team, Id factId, long createdAt) {
        try {
            byte[] h = MessageDigest.getInstance("SHA-256")
                    .digest((team.value() + "/" + factId.value() + "/" + createdAt).getBytes(StandardCharsets.UTF_8));
            return new Id(SyncedFacts.PREFIX + HexFormat.of().formatHex(h).substring(0, 24));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
