package dev.cairn.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The wire types of team sync (API.md § Team sync, the seed's protocol). */
public final class Sync {

    private Sync() {}

    /**
     * One op of a delta. {@code version}, when given, must be {@code base_version + 1} (the version the fact gets);
     * leave it null to let the client fill nothing in.
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Op(
            String op, String factId, Long version, String content, String type, List<String> tags, Double confidence) {

        public static Op upsert(String factId, String content, String type) {
            return new Op("upsert", factId, null, content, type, null, null);
        }

        public static Op delete(String factId) {
            return new Op("delete", factId, null, null, null, null, null);
        }
    }

    /** {@code POST …/sync}; {@code idempotencyKey} is optional (a retry is recognised without one as well). */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Request(String clientId, long baseVersion, String idempotencyKey, List<Op> delta) {}

    /**
     * {@code status} is {@code applied} or {@code queued} (keep_both with every op in conflict: nothing applied);
     * {@code rebasedFrom} the base when the delta went on a newer head; {@code queued} the open conflicts' ids.
     */
    public record Result(String status, long version, Long rebasedFrom, List<String> queued) {

        public boolean applied() {
            return "applied".equals(status);
        }
    }

    /** A fact as the server holds it ({@code null} inside a conflict when the fact never existed). */
    public record Fact(
            String factId,
            long version,
            boolean deleted,
            String content,
            String type,
            List<String> tags,
            double confidence,
            String memoryId) {}

    public record Conflict(String factId, long baseVersion, Fact current, Op proposed) {}

    /** {@code committedBy}: the user of the token that sent the commit (null from a server older than 2026-12-07). */
    public record Change(long version, String clientId, String committedBy, String committedAt, List<Op> ops) {}

    public record Changes(long version, List<Change> changes, Long nextSince) {}

    /**
     * A conflict record of {@code GET …/conflicts}: {@code status} is {@code open} (keep_both, waiting for a
     * resolution), {@code resolved} or {@code overwritten} (last_writer_wins: the value the delta replaced).
     */
    public record QueuedConflict(
            String id,
            String factId,
            long baseVersion,
            long currentVersion,
            String currentContent,
            Op proposed,
            String clientId,
            String createdAt,
            String status,
            String resolution) {

        public boolean open() {
            return "open".equals(status);
        }
    }

    public record ConflictList(List<QueuedConflict> conflicts) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Resolve(String resolution, String content) {}
}
