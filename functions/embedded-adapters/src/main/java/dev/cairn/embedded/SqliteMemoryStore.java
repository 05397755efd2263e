package dev.cairn.embedded;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.ListQuery;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.MemoryState;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Page;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/**
 * {@link MemoryStore} on one SQLite file. Conditional writes are {@code INSERT} on the primary key (fails when the
 * id exists) and {@code UPDATE … WHERE version = ?} (zero rows means someone else won).
 *
 * <p>Three connections, each used under its own lock (a JDBC connection is not thread-safe): the writer, with
 * {@code synchronous=FULL} so every acknowledged write survives a crash or power loss; a reader, which in WAL mode
 * never waits for the writer's fsync; and a statistics connection with {@code synchronous=NORMAL} for access
 * counts, which are best effort (a power cut may lose the last few counts, never a memory).
 */
public final class SqliteMemoryStore implements MemoryStore, AutoCloseable {

    private static final String COLUMNS = "team, id, user_id, scope, type, content, tags, importance, confidence, "
            + "occurred_at, created_at, last_accessed_at, access_count, source_session_id, evidence, version, state, "
            + "superseded_by, valid_to, context";

    private final Connection db;
    private final Connection reader;
    private final Connection stats;
    private final Object readLock = new Object();
    private final Object statsLock = new Object();
    /**
     * The insert statement, prepared once: every single write used to parse and plan it again. Guarded by this
     * store's monitor, as every use of {@link #db} is.
     */
    private PreparedStatement insert;

    public SqliteMemoryStore(Path file) {
        try {
            Files.createDirectories(file.toAbsolutePath().getParent());
            db = open(file, "FULL");
            try (Statement s = db.createStatement()) {
                s.execute("""
                        CREATE TABLE IF NOT EXISTS memories (
                          team TEXT NOT NULL, id TEXT NOT NULL, user_id TEXT, scope TEXT NOT NULL,
                          type TEXT NOT NULL, content TEXT NOT NULL, tags TEXT NOT NULL,
                          importance REAL NOT NULL, confidence REAL NOT NULL, occurred_at INTEGER,
                          created_at INTEGER NOT NULL, last_accessed_at INTEGER, access_count INTEGER NOT NULL,
                          source_session_id TEXT, evidence TEXT NOT NULL, version INTEGER NOT NULL,
                          state TEXT NOT NULL, superseded_by TEXT, valid_to INTEGER, context TEXT,
                          deleted INTEGER NOT NULL DEFAULT 0,
                          indexed_version INTEGER NOT NULL DEFAULT 0,
                          PRIMARY KEY (team, id))""");
                addColumnIfMissing(s, "superseded_by", "TEXT");
                addColumnIfMissing(s, "valid_to", "INTEGER");
                addColumnIfMissing(s, "context", "TEXT");
                // The sparse "needs index" index: only rows whose index entry lags are in it.
                s.execute("CREATE INDEX IF NOT EXISTS memories_pending ON memories(team, id) "
                        + "WHERE indexed_version < version");
                s.execute("CREATE INDEX IF NOT EXISTS memories_recency ON memories(team, created_at, id)");
                s.execute("CREATE INDEX IF NOT EXISTS memories_importance ON memories(team, importance, id)");
                s.execute("CREATE TABLE IF NOT EXISTS job_cursors (name TEXT PRIMARY KEY, value TEXT NOT NULL)");
            }
            reader = open(file, "FULL");
            stats = open(file, "NORMAL");
        } catch (SQLException e) {
            throw new StoreFailure("cannot open the record store at " + file, e);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Data directories created before supersession existed get the columns on first open (null: current). */
    private static void addColumnIfMissing(Statement s, String column, String type) throws SQLException {
        try (ResultSet rs =
                s.executeQuery("SELECT 1 FROM pragma_table_info('memories') WHERE name = '" + column + "'")) {
            if (rs.next()) {
                return;
            }
        }
        s.execute("ALTER TABLE memories ADD COLUMN " + column + " " + type);
    }

    private static Connection open(Path file, String synchronous) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement s = c.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=" + synchronous);
            s.execute("PRAGMA busy_timeout=10000");
        }
        return c;
    }

    @Override
    public synchronized void insertAll(List<Memory> memories) {
        if (memories.isEmpty()) {
            return;
        }
        inTransaction(() -> {
            if (insert == null) {
                insert = db.prepareStatement(
                        "INSERT INTO memories (" + COLUMNS + ") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)");
            }
            PreparedStatement ps = insert;
            try {
                for (Memory m : memories) {
                    bind(ps, m);
                    ps.addBatch();
                }
                ps.executeBatch();
            } catch (SQLException e) {
                ps.clearBatch(); // a failed batch must not be sent again with the next insert
                if (e.getErrorCode() == 19) { // SQLITE_CONSTRAINT: the id exists (attribute_not_exists failed)
                    throw new VersionConflict("a memory with one of these ids", 0, 1);
                }
                throw e;
            }
        });
    }

    @Override
    public Optional<Memory> get(Id team, Id id) {
        synchronized (readLock) {
            return getLocked(team, id);
        }
    }

    private Optional<Memory> getLocked(Id team, Id id) {
        try (PreparedStatement ps = reader.prepareStatement(
                "SELECT " + COLUMNS + " FROM memories WHERE team = ? AND id = ? AND deleted = 0")) {
            ps.setString(1, team.value());
            ps.setString(2, id.value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(read(rs)) : Optional.empty();
            }
        } catch (SQLException e) {
            throw new StoreFailure("get failed", e);
        }
    }

    @Override
    public List<Memory> getAll(Id team, Collection<Id> ids) {
        synchronized (readLock) {
            return getAllLocked(team, ids);
        }
    }

    private List<Memory> getAllLocked(Id team, Collection<Id> ids) {
        List<Memory> out = new ArrayList<>(ids.size());
        if (ids.isEmpty()) {
            return out;
        }
        List<Id> all = List.copyOf(ids);
        int chunk = 500; // well under SQLite's bound-parameter limit
        try {
            for (int from = 0; from < all.size(); from += chunk) {
                List<Id> part = all.subList(from, Math.min(all.size(), from + chunk));
                String marks = String.join(",", java.util.Collections.nCopies(part.size(), "?"));
                try (PreparedStatement ps = reader.prepareStatement("SELECT " + COLUMNS
                        + " FROM memories WHERE team = ? AND deleted = 0 AND id IN (" + marks + ")")) {
                    ps.setString(1, team.value());
                    for (int i = 0; i < part.size(); i++) {
                        ps.setString(i + 2, part.get(i).value());
                    }
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.add(read(rs));
                        }
                    }
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreFailure("getAll failed", e);
        }
    }

    @Override
    public List<Memory> scan(Id team, Id after, int limit) {
        synchronized (readLock) {
            try (PreparedStatement ps = reader.prepareStatement("SELECT " + COLUMNS + " FROM memories "
                    + "WHERE team = ? AND deleted = 0 AND id > ? ORDER BY id LIMIT ?")) {
                ps.setString(1, team.value());
                ps.setString(2, after == null ? "" : after.value());
                ps.setInt(3, limit);
                List<Memory> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(read(rs));
                    }
                }
                return out;
            } catch (SQLException e) {
                throw new StoreFailure("scan failed", e);
            }
        }
    }

    @Override
    public List<Id> teams(Id after, int limit) {
        synchronized (readLock) {
            // the primary key (team, id) serves DISTINCT team in order without touching the rows
            try (PreparedStatement ps = reader.prepareStatement(
                    "SELECT DISTINCT team FROM memories WHERE team > ? " + "ORDER BY team LIMIT ?")) {
                ps.setString(1, after == null ? "" : after.value());
                ps.setInt(2, limit);
                List<Id> out = new ArrayList<>();
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(new Id(rs.getString(1)));
                    }
                }
                return out;
            } catch (SQLException e) {
                throw new StoreFailure("listing teams failed", e);
            }
        }
    }

    @Override
    public Optional<String> decayCursor() {
        synchronized (readLock) {
            try (PreparedStatement ps = reader.prepareStatement("SELECT value FROM job_cursors WHERE name = 'decay'");
                    ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getString(1)) : Optional.empty();
            } catch (SQLException e) {
                throw new StoreFailure("reading the decay cursor failed", e);
            }
        }
    }

    @Override
    public synchronized void saveDecayCursor(String cursor) {
        try (PreparedStatement ps = db.prepareStatement(
                cursor == null
                        ? "DELETE FROM job_cursors WHERE name = 'decay'"
                        : "INSERT INTO job_cursors (name, value) VALUES ('decay', ?) "
                                + "ON CONFLICT(name) DO UPDATE SET value = excluded.value")) {
            if (cursor != null) {
                ps.setString(1, cursor);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            throw new StoreFailure("saving the decay cursor failed", e);
        }
    }

    @Override
    public synchronized void replace(Memory updated) {
        long expected = updated.version() - 1;
        String sql = "UPDATE memories SET type = ?, content = ?, tags = ?, importance = ?, confidence = ?, "
                + "occurred_at = ?, evidence = ?, version = ?, state = ?, superseded_by = ?, valid_to = ?, context = ? "
                + "WHERE team = ? AND id = ? AND version = ? AND deleted = 0";
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setString(1, updated.type().wire());
            ps.setString(2, updated.content());
            ps.setString(3, joinIds(updated.tags()));
            ps.setDouble(4, updated.importance());
            ps.setDouble(5, updated.confidence());
            setInstant(ps, 6, updated.occurredAt());
            ps.setString(7, joinIds(updated.evidence()));
            ps.setLong(8, updated.version());
            ps.setString(9, updated.state().wire());
            ps.setString(
                    10,
                    updated.supersededBy() == null
                            ? null
                            : updated.supersededBy().value());
            setInstant(ps, 11, updated.validTo());
            ps.setString(12, updated.context());
            ps.setString(13, updated.team().value());
            ps.setString(14, updated.id().value());
            ps.setLong(15, expected);
            if (ps.executeUpdate() == 0) {
                throw conflict(updated.team(), updated.id(), expected);
            }
        } catch (SQLException e) {
            throw new StoreFailure("replace failed", e);
        }
    }

    @Override
    public synchronized void delete(Id team, Id id, long expectedVersion) {
        // The tombstone keeps the row (with a bumped version) until the index has dropped the vectors.
        try (PreparedStatement ps = db.prepareStatement("UPDATE memories SET deleted = 1, version = version + 1, "
                + "content = '', context = NULL WHERE team = ? AND id = ? AND version = ? AND deleted = 0")) {
            ps.setString(1, team.value());
            ps.setString(2, id.value());
            ps.setLong(3, expectedVersion);
            if (ps.executeUpdate() == 0) {
                throw conflict(team, id, expectedVersion);
            }
        } catch (SQLException e) {
            throw new StoreFailure("delete failed", e);
        }
    }

    private VersionConflict conflict(Id team, Id id, long expected) throws SQLException {
        try (PreparedStatement ps =
                db.prepareStatement("SELECT version, deleted FROM memories WHERE team = ? AND id = ?")) {
            ps.setString(1, team.value());
            ps.setString(2, id.value());
            try (ResultSet rs = ps.executeQuery()) {
                long actual = rs.next() ? (rs.getInt(2) == 1 ? -1 : rs.getLong(1)) : -1;
                if (actual < 0) {
                    throw new dev.cairn.model.error.NotFound("memory " + id + " in team " + team);
                }
                return new VersionConflict("memory " + id, expected, actual);
            }
        }
    }

    @Override
    public Page list(ListQuery q) {
        synchronized (readLock) {
            return listLocked(q);
        }
    }

    private Page listLocked(ListQuery q) {
        StringBuilder sql = new StringBuilder("SELECT " + COLUMNS + " FROM memories WHERE team = ? AND deleted = 0");
        List<Object> args = new ArrayList<>();
        args.add(q.team().value());
        if (q.scope() == Scope.USER) {
            sql.append(" AND scope = 'user' AND user_id = ?");
            args.add(q.viewer().value());
        } else if (q.scope() == Scope.TEAM) {
            sql.append(" AND scope = 'team'");
        } else {
            sql.append(" AND (scope = 'team' OR user_id = ?)");
            args.add(q.viewer().value());
        }
        if (q.type() != null) {
            sql.append(" AND type = ?");
            args.add(q.type().wire());
        }
        if (q.tag() != null) {
            // tags are stored as ",a,b," so a tag matches only as a whole word (ids cannot contain commas)
            sql.append(" AND tags LIKE ?");
            args.add("%," + q.tag().value() + ",%");
        }
        String key = q.order() == ListQuery.Order.RECENCY ? "created_at" : "importance";
        if (q.after() != null) {
            sql.append(" AND (").append(key).append(" < ? OR (").append(key).append(" = ? AND id < ?))");
            Object k = q.order() == ListQuery.Order.RECENCY
                    ? (Object) (long) q.after().sortKey()
                    : q.after().sortKey();
            args.add(k);
            args.add(k);
            args.add(q.after().id());
        }
        sql.append(" ORDER BY ").append(key).append(" DESC, id DESC LIMIT ?");
        args.add(q.limit() + 1);
        try (PreparedStatement ps = reader.prepareStatement(sql.toString())) {
            for (int i = 0; i < args.size(); i++) {
                ps.setObject(i + 1, args.get(i));
            }
            List<Memory> rows = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    rows.add(read(rs));
                }
            }
            ListQuery.Cursor next = null;
            if (rows.size() > q.limit()) {
                rows = rows.subList(0, q.limit());
                Memory last = rows.get(rows.size() - 1);
                double sortKey =
                        q.order() == ListQuery.Order.RECENCY ? last.createdAt().toEpochMilli() : last.importance();
                next = new ListQuery.Cursor(sortKey, last.id().value());
            }
            return new Page(List.copyOf(rows), next);
        } catch (SQLException e) {
            throw new StoreFailure("list failed", e);
        }
    }

    @Override
    public void recordAccess(Id team, Collection<Id> ids, Instant at) {
        synchronized (statsLock) {
            inTransaction(stats, () -> {
                try (PreparedStatement ps = stats.prepareStatement("UPDATE memories SET access_count = "
                        + "access_count + 1, last_accessed_at = MAX(COALESCE(last_accessed_at, 0), ?) "
                        + "WHERE team = ? AND id = ? AND deleted = 0")) {
                    for (Id id : ids) {
                        ps.setLong(1, at.toEpochMilli());
                        ps.setString(2, team.value());
                        ps.setString(3, id.value());
                        ps.addBatch();
                    }
                    ps.executeBatch();
                }
            });
        }
    }

    @Override
    public List<IndexWork> pendingIndex(int limit) {
        synchronized (readLock) {
            return pendingLocked(limit);
        }
    }

    private List<IndexWork> pendingLocked(int limit) {
        try (PreparedStatement ps = reader.prepareStatement(
                "SELECT " + COLUMNS + ", deleted FROM memories " + "WHERE indexed_version < version LIMIT ?")) {
            ps.setInt(1, limit);
            List<IndexWork> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    Id team = new Id(rs.getString("team"));
                    Id id = new Id(rs.getString("id"));
                    long version = rs.getLong("version");
                    out.add(new IndexWork(team, id, version, rs.getInt("deleted") == 1 ? null : read(rs)));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreFailure("pendingIndex failed", e);
        }
    }

    @Override
    public Optional<IndexWork> indexWork(Id team, Id id) {
        synchronized (readLock) {
            try (PreparedStatement ps = reader.prepareStatement("SELECT " + COLUMNS + ", deleted FROM memories "
                    + "WHERE team = ? AND id = ? AND indexed_version < version")) {
                ps.setString(1, team.value());
                ps.setString(2, id.value());
                try (ResultSet rs = ps.executeQuery()) {
                    if (!rs.next()) {
                        return Optional.empty();
                    }
                    return Optional.of(new IndexWork(
                            team, id, rs.getLong("version"), rs.getInt("deleted") == 1 ? null : read(rs)));
                }
            } catch (SQLException e) {
                throw new StoreFailure("indexWork failed", e);
            }
        }
    }

    @Override
    public void markIndexed(Id team, Id id, long version) {
        markIndexed(List.of(new VectorIndex.Key(team, id, version)));
    }

    /**
     * One transaction for the whole list, on the best-effort connection ({@code synchronous=NORMAL}: no fsync of its
     * own; the next durable write syncs it too): a mark lost to a power cut only makes catch-up index the memory again,
     * which the index ignores as a version it already holds.
     */
    @Override
    public void markIndexed(List<VectorIndex.Key> indexed) {
        if (indexed.isEmpty()) {
            return;
        }
        synchronized (statsLock) {
            inTransaction(stats, () -> {
                try (PreparedStatement purge = stats.prepareStatement(
                                "DELETE FROM memories WHERE team = ? AND id = ? AND deleted = 1 AND version <= ?");
                        PreparedStatement mark = stats.prepareStatement("UPDATE memories SET indexed_version = ? "
                                + "WHERE team = ? AND id = ? AND indexed_version < ? AND version >= ?")) {
                    for (VectorIndex.Key k : indexed) {
                        purge.setString(1, k.team().value());
                        purge.setString(2, k.id().value());
                        purge.setLong(3, k.version());
                        purge.addBatch();
                        mark.setLong(1, k.version());
                        mark.setString(2, k.team().value());
                        mark.setString(3, k.id().value());
                        mark.setLong(4, k.version());
                        mark.setLong(5, k.version());
                        mark.addBatch();
                    }
                    purge.executeBatch();
                    mark.executeBatch();
                }
            });
        }
    }

    /** Counts live memories of a team; used by tests and the benchmark. */
    public long count(Id team) {
        synchronized (readLock) {
            return countLocked(team);
        }
    }

    private long countLocked(Id team) {
        try (PreparedStatement ps =
                reader.prepareStatement("SELECT COUNT(*) FROM memories WHERE team = ? AND deleted = 0")) {
            ps.setString(1, team.value());
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        } catch (SQLException e) {
            throw new StoreFailure("count failed", e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            synchronized (readLock) {
                reader.close();
            }
            synchronized (statsLock) {
                stats.close();
            }
            if (insert != null) {
                insert.close();
            }
            db.close();
        } catch (SQLException e) {
            throw new StoreFailure("close failed", e);
        }
    }

    private void inTransaction(SqliteFiles.Transaction work) {
        inTransaction(db, work);
    }

    private static void inTransaction(Connection c, SqliteFiles.Transaction work) {
        SqliteFiles.inTransaction(c, "write", work);
    }

    private static void bind(PreparedStatement ps, Memory m) throws SQLException {
        ps.setString(1, m.team().value());
        ps.setString(2, m.id().value());
        ps.setString(3, m.user() == null ? null : m.user().value());
        ps.setString(4, m.scope().wire());
        ps.setString(5, m.type().wire());
        ps.setString(6, m.content());
        ps.setString(7, joinIds(m.tags()));
        ps.setDouble(8, m.importance());
        ps.setDouble(9, m.confidence());
        setInstant(ps, 10, m.occurredAt());
        ps.setLong(11, m.createdAt().toEpochMilli());
        setInstant(ps, 12, m.lastAccessedAt());
        ps.setLong(13, m.accessCount());
        ps.setString(
                14, m.sourceSessionId() == null ? null : m.sourceSessionId().value());
        ps.setString(15, joinIds(m.evidence()));
        ps.setLong(16, m.version());
        ps.setString(17, m.state().wire());
        ps.setString(18, m.supersededBy() == null ? null : m.supersededBy().value());
        setInstant(ps, 19, m.validTo());
        ps.setString(20, m.context());
    }

    private static Memory read(ResultSet rs) throws SQLException {
        String user = rs.getString("user_id");
        String session = rs.getString("source_session_id");
        String supersededBy = rs.getString("superseded_by");
        return new Memory(
                new Id(rs.getString("id")),
                new Id(rs.getString("team")),
                user == null ? null : new Id(user),
                Scope.fromWire(rs.getString("scope")),
                MemoryType.fromWire(rs.getString("type")),
                rs.getString("content"),
                splitIds(rs.getString("tags")),
                rs.getDouble("importance"),
                rs.getDouble("confidence"),
                getInstant(rs, "occurred_at"),
                Instant.ofEpochMilli(rs.getLong("created_at")),
                getInstant(rs, "last_accessed_at"),
                rs.getLong("access_count"),
                session == null ? null : new Id(session),
                splitIds(rs.getString("evidence")),
                rs.getLong("version"),
                MemoryState.fromWire(rs.getString("state")),
                supersededBy == null ? null : new Id(supersededBy),
                getInstant(rs, "valid_to"),
                rs.getString("context"));
    }

    private static void setInstant(PreparedStatement ps, int i, Instant t) throws SQLException {
        if (t == null) {
            ps.setNull(i, Types.INTEGER);
        } else {
            ps.setLong(i, t.toEpochMilli());
        }
    }

    private static Instant getInstant(ResultSet rs, String column) throws SQLException {
        long v = rs.getLong(column);
        return rs.wasNull() ? null : Instant.ofEpochMilli(v);
    }

    /** Ids cannot contain commas, so ",a,b," is unambiguous and lets a tag be matched as a whole word. */
    private static String joinIds(List<Id> ids) {
        if (ids.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder(",");
        for (Id id : ids) {
            sb.append(id.value()).append(',');
        }
        return sb.toString();
    }

    private static List<Id> splitIds(String joined) {
        if (joined == null || joined.isEmpty()) {
            return List.of();
        }
        return Arrays.stream(joined.split(","))
                .filter(s -> !s.isEmpty())
                .map(Id::new)
                .toList();
    }
}
