package dev.cairn.embedded;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.sync.Commit;
import dev.cairn.model.sync.ConflictRecord;
import dev.cairn.model.sync.FactState;
import dev.cairn.model.sync.OpsCodec;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link SyncStore} on one SQLite file ({@code sync.db}): the commit log keyed (team, version) — {@code INSERT OR
 * IGNORE} is the {@code attribute_not_exists} — and the state derived from it. FULL sync: an acknowledged commit is
 * on disk. One connection, calls serialised.
 */
public final class SqliteSyncStore implements SyncStore, AutoCloseable {

    private final Connection db;

    public SqliteSyncStore(Path file) {
        try {
            db = SqliteFiles.open(file, "FULL");
            try (Statement s = db.createStatement()) {
                s.execute("""
                        CREATE TABLE IF NOT EXISTS commits (team TEXT NOT NULL, version INTEGER NOT NULL,
                          client_id TEXT NOT NULL, idem_key TEXT NOT NULL, committer TEXT NOT NULL,
                          committed_at INTEGER NOT NULL, ops TEXT NOT NULL, PRIMARY KEY (team, version))""");
                s.execute(
                        "CREATE TABLE IF NOT EXISTS sync_head (team TEXT PRIMARY KEY, materialized INTEGER NOT NULL)");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS idempotency (team TEXT NOT NULL, key TEXT NOT NULL,
                          version INTEGER NOT NULL, PRIMARY KEY (team, key))""");
                s.execute("CREATE TABLE IF NOT EXISTS void_commits (team TEXT NOT NULL, version INTEGER NOT NULL, "
                        + "PRIMARY KEY (team, version))");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS facts (team TEXT NOT NULL, fact_id TEXT NOT NULL,
                          version INTEGER NOT NULL, deleted INTEGER NOT NULL, content TEXT NOT NULL, type TEXT NOT NULL,
                          tags TEXT NOT NULL, confidence REAL NOT NULL, commit_version INTEGER NOT NULL,
                          memory_id TEXT NOT NULL, PRIMARY KEY (team, fact_id))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS conflicts (team TEXT NOT NULL, id TEXT NOT NULL,
                          fact_id TEXT NOT NULL, base_version INTEGER NOT NULL, current_version INTEGER NOT NULL,
                          current_content TEXT, proposed TEXT NOT NULL, client_id TEXT NOT NULL,
                          created_at INTEGER NOT NULL, status TEXT NOT NULL, resolution TEXT,
                          PRIMARY KEY (team, id))""");
            }
        } catch (SQLException e) {
            throw new StoreFailure("cannot open the sync store at " + file, e);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized boolean appendCommit(Commit c) {
        return run("INSERT OR IGNORE INTO commits VALUES (?,?,?,?,?,?,?)", ps -> {
            ps.setString(1, c.team().value());
            ps.setLong(2, c.version());
            ps.setString(3, c.clientId().value());
            ps.setString(4, c.idempotencyKey());
            ps.setString(5, c.committer().value());
            ps.setLong(6, c.committedAt().toEpochMilli());
            ps.setString(7, OpsCodec.encode(c.ops()));
            return ps.executeUpdate() == 1;
        });
    }

    @Override
    public synchronized List<Commit> commits(Id team, long after, int limit) {
        return run("SELECT * FROM commits WHERE team = ? AND version > ? ORDER BY version LIMIT ?", ps -> {
            ps.setString(1, team.value());
            ps.setLong(2, after);
            ps.setInt(3, limit);
            List<Commit> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Commit(
                            team,
                            rs.getLong("version"),
                            new Id(rs.getString("client_id")),
                            rs.getString("idem_key"),
                            new Id(rs.getString("committer")),
                            Instant.ofEpochMilli(rs.getLong("committed_at")),
                            OpsCodec.decode(rs.getString("ops"))));
                }
            }
            return out;
        });
    }

    @Override
    public synchronized long lastCommit(Id team) {
        return run("SELECT COALESCE(MAX(version), 0) FROM commits WHERE team = ?", ps -> {
            ps.setString(1, team.value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    @Override
    public synchronized long materialized(Id team) {
        return run("SELECT materialized FROM sync_head WHERE team = ?", ps -> {
            ps.setString(1, team.value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        });
    }

    @Override
    public synchronized void advanceMaterialized(Id team, long version) {
        run(
                "INSERT INTO sync_head VALUES (?, ?) ON CONFLICT (team) DO UPDATE SET "
                        + "materialized = MAX(materialized, excluded.materialized)",
                ps -> {
                    ps.setString(1, team.value());
                    ps.setLong(2, version);
                    return ps.executeUpdate();
                });
    }

    @Override
    public synchronized long claimIdempotency(Id team, String key, long version) {
        run("INSERT OR IGNORE INTO idempotency VALUES (?,?,?)", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, key);
            ps.setLong(3, version);
            return ps.executeUpdate();
        });
        return idempotency(team, key).orElseThrow();
    }

    @Override
    public synchronized Optional<Long> idempotency(Id team, String key) {
        return run("SELECT version FROM idempotency WHERE team = ? AND key = ?", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(rs.getLong(1)) : Optional.empty();
            }
        });
    }

    @Override
    public synchronized void markVoid(Id team, long version) {
        run("INSERT OR IGNORE INTO void_commits VALUES (?, ?)", ps -> {
            ps.setString(1, team.value());
            ps.setLong(2, version);
            return ps.executeUpdate();
        });
    }

    @Override
    public synchronized java.util.Set<Long> voids(Id team, long after, long upTo) {
        return run("SELECT version FROM void_commits WHERE team = ? AND version > ? AND version <= ?", ps -> {
            ps.setString(1, team.value());
            ps.setLong(2, after);
            ps.setLong(3, upTo);
            java.util.Set<Long> out = new java.util.HashSet<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getLong(1));
                }
            }
            return out;
        });
    }

    @Override
    public synchronized Map<Id, FactState> facts(Id team, Collection<Id> factIds) {
        Map<Id, FactState> out = new HashMap<>();
        run("SELECT * FROM facts WHERE team = ? AND fact_id = ?", ps -> {
            for (Id f : factIds) {
                ps.setString(1, team.value());
                ps.setString(2, f.value());
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        out.put(f, fact(team, rs));
                    }
                }
            }
            return null;
        });
        return out;
    }

    @Override
    public synchronized List<FactState> allFacts(Id team) {
        return run("SELECT * FROM facts WHERE team = ? ORDER BY fact_id", ps -> {
            ps.setString(1, team.value());
            List<FactState> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(fact(team, rs));
                }
            }
            return out;
        });
    }

    @Override
    public synchronized void putFact(FactState f) {
        run(
                "INSERT INTO facts VALUES (?,?,?,?,?,?,?,?,?,?) ON CONFLICT (team, fact_id) DO UPDATE SET "
                        + "version = excluded.version, deleted = excluded.deleted, content = excluded.content, "
                        + "type = excluded.type, tags = excluded.tags, confidence = excluded.confidence, "
                        + "commit_version = excluded.commit_version, memory_id = excluded.memory_id "
                        + "WHERE commit_version < excluded.commit_version",
                ps -> {
                    bindFact(ps, f);
                    return ps.executeUpdate();
                });
    }

    @Override
    public synchronized void resetMaterialized(Id team, List<FactState> facts, long version) {
        SqliteFiles.inTransaction(db, "rebuild", () -> {
            run("DELETE FROM facts WHERE team = ?", ps -> {
                ps.setString(1, team.value());
                return ps.executeUpdate();
            });
            run("INSERT INTO facts VALUES (?,?,?,?,?,?,?,?,?,?)", ps -> {
                for (FactState f : facts) {
                    bindFact(ps, f);
                    ps.addBatch();
                }
                return ps.executeBatch();
            });
            run("INSERT OR REPLACE INTO sync_head VALUES (?, ?)", ps -> {
                ps.setString(1, team.value());
                ps.setLong(2, version);
                return ps.executeUpdate();
            });
        });
    }

    @Override
    public synchronized void putConflict(ConflictRecord c) {
        run("INSERT OR REPLACE INTO conflicts VALUES (?,?,?,?,?,?,?,?,?,?,?)", ps -> {
            bindConflict(ps, c);
            return ps.executeUpdate();
        });
    }

    @Override
    public synchronized List<ConflictRecord> conflicts(Id team) {
        return run("SELECT * FROM conflicts WHERE team = ? ORDER BY id", ps -> {
            ps.setString(1, team.value());
            List<ConflictRecord> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(conflict(team, rs));
                }
            }
            return out;
        });
    }

    @Override
    public synchronized Optional<ConflictRecord> conflict(Id team, Id id) {
        return run("SELECT * FROM conflicts WHERE team = ? AND id = ?", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, id.value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(conflict(team, rs)) : Optional.empty();
            }
        });
    }

    @Override
    public synchronized boolean updateConflict(ConflictRecord c, String expectedStatus) {
        return run("UPDATE conflicts SET status = ?, resolution = ? WHERE team = ? AND id = ? AND status = ?", ps -> {
            ps.setString(1, c.status());
            ps.setString(2, c.resolution());
            ps.setString(3, c.team().value());
            ps.setString(4, c.id().value());
            ps.setString(5, expectedStatus);
            return ps.executeUpdate() == 1;
        });
    }

    @Override
    public synchronized void close() throws SQLException {
        db.close();
    }

    private <T> T run(String sql, SqliteFiles.Work<T> work) {
        return SqliteFiles.run(db, "sync store", sql, work);
    }

    private static void bindFact(PreparedStatement ps, FactState f) throws SQLException {
        ps.setString(1, f.team().value());
        ps.setString(2, f.factId().value());
        ps.setLong(3, f.version());
        ps.setInt(4, f.deleted() ? 1 : 0);
        ps.setString(5, f.content());
        ps.setString(6, f.type().wire());
        ps.setString(7, String.join(",", f.tags().stream().map(Id::value).toList()));
        ps.setDouble(8, f.confidence());
        ps.setLong(9, f.commit());
        ps.setString(10, f.memoryId().value());
    }

    private static FactState fact(Id team, ResultSet rs) throws SQLException {
        String tags = rs.getString("tags");
        return new FactState(
                team,
                new Id(rs.getString("fact_id")),
                rs.getLong("version"),
                rs.getInt("deleted") == 1,
                rs.getString("content"),
                MemoryType.fromWire(rs.getString("type")),
                tags.isEmpty()
                        ? List.of()
                        : Arrays.stream(tags.split(",")).map(Id::new).toList(),
                rs.getDouble("confidence"),
                rs.getLong("commit_version"),
                new Id(rs.getString("memory_id")));
    }

    private static void bindConflict(PreparedStatement ps, ConflictRecord c) throws SQLException {
        ps.setString(1, c.team().value());
        ps.setString(2, c.id().value());
        ps.setString(3, c.factId().value());
        ps.setLong(4, c.baseVersion());
        ps.setLong(5, c.currentVersion());
        ps.setString(6, c.currentContent());
        ps.setString(7, OpsCodec.encode(List.of(c.proposed())));
        ps.setString(8, c.clientId().value());
        ps.setLong(9, c.createdAt().toEpochMilli());
        ps.setString(10, c.status());
        ps.setString(11, c.resolution());
    }

    private static ConflictRecord conflict(Id team, ResultSet rs) throws SQLException {
        return new ConflictRecord(
                team,
                new Id(rs.getString("id")),
                new Id(rs.getString("fact_id")),
                rs.getLong("base_version"),
                rs.getLong("current_version"),
                rs.getString("current_content"),
                OpsCodec.decode(rs.getString("proposed")).get(0),
                new Id(rs.getString("client_id")),
                Instant.ofEpochMilli(rs.getLong("created_at")),
                rs.getString("status"),
                rs.getString("resolution"));
    }
}
