package dev.cairn.model.port;

import dev.cairn.model.id.Id;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.ConflictRecord;
import dev.cairn.model.sync.FactState;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Team sync's storage: the commit log (the truth), and what is derived from it — the materialized head and facts,
 * idempotency claims, void marks — plus conflict records. No multi-item transactions: the design needs none (the
 * local DynamoDB stand-in has none).
 */
public interface SyncStore {

    /** Writes the commit at its version if that version is free ({@code attribute_not_exists}); false if taken. */
    boolean appendCommit(Commit commit);

    /** Up to {@code limit} commits with version > {@code after}, in order (a range read on the log). */
    List<Commit> commits(Id team, long after, int limit);

    /** The newest version in the log (0 when empty), read from the log itself. */
    long lastCommit(Id team);

    /** The version the materialized state has reached. */
    long materialized(Id team);

    /** Moves the materialized version forward to {@code version} (never back). */
    void advanceMaterialized(Id team, long version);

    /** Claims {@code key} for the commit at {@code version}; returns the version that holds it (ours or earlier). */
    long claimIdempotency(Id team, String key, long version);

    Optional<Long> idempotency(Id team, String key);

    /** Records that the commit at {@code version} is void (its key belongs to an earlier commit). */
    void markVoid(Id team, long version);

    /** The void commits with {@code after < version <= upTo}: one range read for a page of the change feed. */
    java.util.Set<Long> voids(Id team, long after, long upTo);

    Map<Id, FactState> facts(Id team, Collection<Id> factIds);

    List<FactState> allFacts(Id team);

    /** Writes a fact's state if the stored one comes from an older commit (or none): replays change nothing twice. */
    void putFact(FactState state);

    /** Rebuild only: replaces the materialized state wholesale. */
    void resetMaterialized(Id team, List<FactState> facts, long version);

    void putConflict(ConflictRecord conflict);

    List<ConflictRecord> conflicts(Id team);

    Optional<ConflictRecord> conflict(Id team, Id id);

    /** Replaces a conflict record if its status is still {@code expectedStatus}; false otherwise. */
    boolean updateConflict(ConflictRecord updated, String expectedStatus);
}
