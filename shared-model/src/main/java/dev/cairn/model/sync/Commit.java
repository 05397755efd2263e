package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import java.time.Instant;
import java.util.List;

/**
 * One accepted delta: the single linearization point of a team's shared memory, keyed (team, version) and written
 * only if that version is free. {@code idempotencyKey} makes a retried request find its first answer; a commit whose
 * key already belongs to an earlier commit (two copies of one request racing) is void: it changes nothing.
 */
public record Commit(
        Id team,
        long version,
        Id clientId,
        String idempotencyKey,
        Id committer,
        Instant committedAt,
        List<SyncOp> ops) {

    public Commit {
        ops = List.copyOf(ops);
    }

    /**
     * The stored key is {@code <client>/<key>#<fingerprint>}: the client's key scoped to the client, and a digest of
     * the delta it was sent with, so a key reused for another delta is recognised. Logs written before keys were
     * scoped hold a bare key, which is its own claim.
     */
    public static String storedKey(Id clientId, String key, String fingerprint) {
        return clientId.value() + "/" + key + "#" + fingerprint;
    }

    /** The part of the key that is claimed once per team: {@code <client>/<key>}. */
    public String claimKey() {
        return claimKey(idempotencyKey);
    }

    public static String claimKey(String storedKey) {
        int hash = storedKey.lastIndexOf('#');
        return hash < 0 ? storedKey : storedKey.substring(0, hash);
    }

    /** The digest of the delta the key was first sent with; empty for a log written before fingerprints. */
    public String fingerprint() {
        return fingerprintOf(idempotencyKey);
    }

    public static String fingerprintOf(String storedKey) {
        int hash = storedKey.lastIndexOf('#');
        return hash < 0 ? "" : storedKey.substring(hash + 1);
    }
}
