package dev.cairn.embedded;

import dev.cairn.model.cache.CachedResult;
import dev.cairn.model.cache.ContextPrefix;
import dev.cairn.model.cache.ContextSnapshot;
import dev.cairn.model.cache.HourlyUsage;
import dev.cairn.model.cache.UsageTotals;
import dev.cairn.model.cache.Validator;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.SessionCacheStore;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@link SessionCacheStore} on one SQLite file ({@code session-cache.db} in the data directory): tool-cache entries,
 * their counters, usage per model, context prefixes, content-addressed context blocks and snapshots. One connection,
 * calls serialised; counters are {@code UPDATE … SET n = n + ?} upserts, so no count is lost. Synchronous=NORMAL in
 * WAL mode: a power cut may lose the last cache writes, never corrupt the file — a cache entry is recomputable by
 * calling the tool again, unlike a memory.
 */
public final class SqliteSessionCacheStore implements SessionCacheStore, AutoCloseable {

    private final Connection db;

    public SqliteSessionCacheStore(Path file) {
        try {
            db = SqliteFiles.open(file, "NORMAL");
            try (Statement s = db.createStatement()) {
                s.execute("""
                        CREATE TABLE IF NOT EXISTS tool_cache (
                          team TEXT NOT NULL, session TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL,
                          result TEXT NOT NULL, bytes INTEGER NOT NULL, stored_at INTEGER NOT NULL,
                          expires_at INTEGER NOT NULL, v_kind TEXT, v_value TEXT,
                          PRIMARY KEY (team, session, key))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS tool_counters (
                          team TEXT NOT NULL, session TEXT NOT NULL, hits INTEGER NOT NULL, misses INTEGER NOT NULL,
                          evictions INTEGER NOT NULL, generation INTEGER NOT NULL, PRIMARY KEY (team, session))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS usage (
                          team TEXT NOT NULL, session TEXT NOT NULL, model TEXT NOT NULL, requests INTEGER NOT NULL,
                          input INTEGER NOT NULL, output INTEGER NOT NULL, cache_write INTEGER NOT NULL,
                          cache_read INTEGER NOT NULL, PRIMARY KEY (team, session, model))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS usage_hourly (
                          team TEXT NOT NULL, session TEXT NOT NULL, hour INTEGER NOT NULL, model TEXT NOT NULL,
                          requests INTEGER NOT NULL, input INTEGER NOT NULL, output INTEGER NOT NULL,
                          cache_write INTEGER NOT NULL, cache_read INTEGER NOT NULL,
                          PRIMARY KEY (team, session, hour, model))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS context_prefix (
                          team TEXT NOT NULL, session TEXT NOT NULL, system TEXT NOT NULL, tools TEXT NOT NULL,
                          model TEXT NOT NULL, PRIMARY KEY (team, session))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS context_blocks (
                          team TEXT NOT NULL, session TEXT NOT NULL, hash TEXT NOT NULL, text TEXT NOT NULL,
                          PRIMARY KEY (team, session, hash))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS context_snapshots (
                          team TEXT NOT NULL, session TEXT NOT NULL, turn INTEGER NOT NULL,
                          assembled_at INTEGER NOT NULL, model TEXT NOT NULL, max_tokens INTEGER NOT NULL,
                          blocks TEXT NOT NULL, PRIMARY KEY (team, session, turn))""");
                s.execute("""
                        CREATE TABLE IF NOT EXISTS context_shown (
                          team TEXT NOT NULL, memory TEXT NOT NULL, session TEXT NOT NULL, turn INTEGER NOT NULL,
                          PRIMARY KEY (team, memory, session, turn))""");
            }
        } catch (SQLException e) {
            throw new StoreFailure("cannot open the session cache store at " + file, e);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void putEntry(CachedResult e) {
        run("INSERT OR REPLACE INTO tool_cache VALUES (?,?,?,?,?,?,?,?,?,?)", ps -> {
            ps.setString(1, e.team().value());
            ps.setString(2, e.session().value());
            ps.setString(3, e.key());
            ps.setString(4, e.tool());
            ps.setString(5, e.result());
            ps.setLong(6, e.bytes());
            ps.setLong(7, e.storedAt().toEpochMilli());
            ps.setLong(8, e.expiresAt().toEpochMilli());
            ps.setString(9, e.validator() == null ? null : e.validator().kind().wire());
            ps.setString(10, e.validator() == null ? null : e.validator().value());
            ps.executeUpdate();
            return null;
        });
    }

    @Override
    public synchronized Optional<CachedResult> entry(Id team, Id session, String key) {
        return run("SELECT * FROM tool_cache WHERE team = ? AND session = ? AND key = ?", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            ps.setString(3, key);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(entry(rs)) : Optional.empty();
            }
        });
    }

    @Override
    public synchronized boolean deleteEntry(Id team, Id session, String key) {
        return run("DELETE FROM tool_cache WHERE team = ? AND session = ? AND key = ?", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            ps.setString(3, key);
            return ps.executeUpdate() > 0;
        });
    }

    @Override
    public synchronized List<CachedResult> entries(Id team, Id session) {
        return run("SELECT * FROM tool_cache WHERE team = ? AND session = ? ORDER BY key", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            List<CachedResult> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(entry(rs));
                }
            }
            return out;
        });
    }

    @Override
    public synchronized Counters addCounters(
            Id team, Id session, long hits, long misses, long evictions, boolean bumpGeneration) {
        run(
                "INSERT INTO tool_counters VALUES (?,?,?,?,?,?) ON CONFLICT (team, session) DO UPDATE SET "
                        + "hits = hits + excluded.hits, misses = misses + excluded.misses, "
                        + "evictions = evictions + excluded.evictions, generation = generation + excluded.generation",
                ps -> {
                    ps.setString(1, team.value());
                    ps.setString(2, session.value());
                    ps.setLong(3, hits);
                    ps.setLong(4, misses);
                    ps.setLong(5, evictions);
                    ps.setLong(6, bumpGeneration ? 1 : 0);
                    ps.executeUpdate();
                    return null;
                });
        return counters(team, session);
    }

    @Override
    public synchronized Counters counters(Id team, Id session) {
        return run(
                "SELECT hits, misses, evictions, generation FROM tool_counters WHERE team = ? AND session = ?", ps -> {
                    ps.setString(1, team.value());
                    ps.setString(2, session.value());
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next()
                                ? new Counters(rs.getLong(1), rs.getLong(2), rs.getLong(3), rs.getLong(4))
                                : Counters.ZERO;
                    }
                });
    }

    @Override
    public synchronized void addUsage(Id team, Id session, String model, Instant hour, UsageTotals d) {
        // both rows in one transaction: the hourly series always sums to the totals
        SqliteFiles.inTransaction(db, "session cache store", () -> {
            upsertUsage(
                    "INSERT INTO usage VALUES (?,?,?,?,?,?,?,?) ON CONFLICT (team, session, model) DO UPDATE SET ",
                    d,
                    team.value(),
                    session.value(),
                    model);
            upsertUsage(
                    "INSERT INTO usage_hourly VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (team, session, hour, model) "
                            + "DO UPDATE SET ",
                    d,
                    team.value(),
                    session.value(),
                    hour.getEpochSecond(),
                    model);
        });
    }

    /** An upsert adding {@code d} to the row with the given key values (bound first, in order). */
    private void upsertUsage(String insert, UsageTotals d, Object... key) {
        run(
                insert
                        + "requests = requests + excluded.requests, input = input + excluded.input, "
                        + "output = output + excluded.output, cache_write = cache_write + excluded.cache_write, "
                        + "cache_read = cache_read + excluded.cache_read",
                ps -> {
                    int i = 1;
                    for (Object k : key) {
                        ps.setObject(i++, k);
                    }
                    ps.setLong(i++, d.requests());
                    ps.setLong(i++, d.inputTokens());
                    ps.setLong(i++, d.outputTokens());
                    ps.setLong(i++, d.cacheCreationInputTokens());
                    ps.setLong(i, d.cacheReadInputTokens());
                    ps.executeUpdate();
                    return null;
                });
    }

    @Override
    public synchronized List<HourlyUsage> hourlyUsage(Id team, Id session) {
        return run(
                "SELECT hour, model, requests, input, output, cache_write, cache_read FROM usage_hourly "
                        + "WHERE team = ? AND session = ? ORDER BY hour, model",
                ps -> {
                    ps.setString(1, team.value());
                    ps.setString(2, session.value());
                    List<HourlyUsage> out = new ArrayList<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.add(new HourlyUsage(
                                    Instant.ofEpochSecond(rs.getLong(1)),
                                    rs.getString(2),
                                    new UsageTotals(
                                            rs.getLong(3),
                                            rs.getLong(4),
                                            rs.getLong(5),
                                            rs.getLong(6),
                                            rs.getLong(7))));
                        }
                    }
                    return out;
                });
    }

    @Override
    public synchronized Map<String, UsageTotals> usage(Id team, Id session) {
        return run(
                "SELECT model, requests, input, output, cache_write, cache_read FROM usage "
                        + "WHERE team = ? AND session = ?",
                ps -> {
                    ps.setString(1, team.value());
                    ps.setString(2, session.value());
                    Map<String, UsageTotals> out = new HashMap<>();
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            out.put(
                                    rs.getString(1),
                                    new UsageTotals(
                                            rs.getLong(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), rs.getLong(6)));
                        }
                    }
                    return out;
                });
    }

    @Override
    public synchronized void putPrefix(Id team, Id session, ContextPrefix p) {
        run("INSERT OR REPLACE INTO context_prefix VALUES (?,?,?,?,?)", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            ps.setString(3, p.system());
            ps.setString(4, p.tools());
            ps.setString(5, p.model());
            ps.executeUpdate();
            return null;
        });
    }

    @Override
    public synchronized Optional<ContextPrefix> prefix(Id team, Id session) {
        return run("SELECT system, tools, model FROM context_prefix WHERE team = ? AND session = ?", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next()
                        ? Optional.of(new ContextPrefix(rs.getString(1), rs.getString(2), rs.getString(3)))
                        : Optional.empty();
            }
        });
    }

    @Override
    public synchronized void putSnapshot(Id team, Id session, ContextSnapshot s, Map<String, String> blocksByHash) {
        run("INSERT OR IGNORE INTO context_blocks VALUES (?,?,?,?)", ps -> {
            for (Map.Entry<String, String> b : blocksByHash.entrySet()) {
                ps.setString(1, team.value());
                ps.setString(2, session.value());
                ps.setString(3, b.getKey());
                ps.setString(4, b.getValue());
                ps.addBatch();
            }
            ps.executeBatch();
            return null;
        });
        run("INSERT OR REPLACE INTO context_snapshots VALUES (?,?,?,?,?,?,?)", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            ps.setLong(3, s.turn());
            ps.setLong(4, s.assembledAt().toEpochMilli());
            ps.setString(5, s.model());
            ps.setInt(6, s.maxTokens());
            ps.setString(7, s.encodeBlocks());
            ps.executeUpdate();
            return null;
        });
    }

    @Override
    public synchronized Optional<ContextSnapshot> snapshot(Id team, Id session, long turn) {
        return run(
                "SELECT assembled_at, model, max_tokens, blocks FROM context_snapshots "
                        + "WHERE team = ? AND session = ? AND turn = ?",
                ps -> {
                    ps.setString(1, team.value());
                    ps.setString(2, session.value());
                    ps.setLong(3, turn);
                    try (ResultSet rs = ps.executeQuery()) {
                        return rs.next()
                                ? Optional.of(new ContextSnapshot(
                                        turn,
                                        Instant.ofEpochMilli(rs.getLong(1)),
                                        rs.getString(2),
                                        rs.getInt(3),
                                        ContextSnapshot.decodeBlocks(rs.getString(4))))
                                : Optional.empty();
                    }
                });
    }

    @Override
    public synchronized Map<String, String> blocks(Id team, Id session, List<String> hashes) {
        Map<String, String> out = new HashMap<>();
        run("SELECT text FROM context_blocks WHERE team = ? AND session = ? AND hash = ?", ps -> {
            for (String h : hashes) {
                ps.setString(1, team.value());
                ps.setString(2, session.value());
                ps.setString(3, h);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        out.put(h, rs.getString(1));
                    }
                }
            }
            return null;
        });
        return out;
    }

    @Override
    public synchronized void recordShown(Id team, Id session, long turn, Collection<Id> memories) {
        run("INSERT OR IGNORE INTO context_shown VALUES (?,?,?,?)", ps -> {
            for (Id m : memories) {
                ps.setString(1, team.value());
                ps.setString(2, m.value());
                ps.setString(3, session.value());
                ps.setLong(4, turn);
                ps.addBatch();
            }
            ps.executeBatch();
            return null;
        });
    }

    @Override
    public synchronized List<Shown> snapshotsShowing(Id team, Id memory) {
        return run("SELECT session, turn FROM context_shown WHERE team = ? AND memory = ?", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, memory.value());
            List<Shown> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new Shown(new Id(rs.getString(1)), rs.getLong(2)));
                }
            }
            return out;
        });
    }

    @Override
    public synchronized void forgetShown(Id team, Id memory) {
        run("DELETE FROM context_shown WHERE team = ? AND memory = ?", ps -> {
            ps.setString(1, team.value());
            ps.setString(2, memory.value());
            return ps.executeUpdate();
        });
    }

    @Override
    public synchronized void deleteBlocks(Id team, Id session, Collection<String> hashes) {
        run("DELETE FROM context_blocks WHERE team = ? AND session = ? AND hash = ?", ps -> {
            for (String h : hashes) {
                ps.setString(1, team.value());
                ps.setString(2, session.value());
                ps.setString(3, h);
                ps.addBatch();
            }
            ps.executeBatch();
            return null;
        });
    }

    @Override
    public synchronized void close() throws SQLException {
        db.close();
    }

    private <T> T run(String sql, SqliteFiles.Work<T> work) {
        return SqliteFiles.run(db, "session cache store", sql, work);
    }

    private static CachedResult entry(ResultSet rs) throws SQLException {
        String kind = rs.getString("v_kind");
        return new CachedResult(
                new Id(rs.getString("team")),
                new Id(rs.getString("session")),
                rs.getString("key"),
                rs.getString("tool"),
                rs.getString("result"),
                rs.getLong("bytes"),
                Instant.ofEpochMilli(rs.getLong("stored_at")),
                Instant.ofEpochMilli(rs.getLong("expires_at")),
                kind == null ? null : new Validator(Validator.Kind.fromWire(kind), rs.getString("v_value")));
    }
}
