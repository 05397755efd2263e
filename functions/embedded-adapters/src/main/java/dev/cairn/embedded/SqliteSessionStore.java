package dev.cairn.embedded;

import dev.cairn.model.error.VersionConflict;
import dev.cairn.model.id.Id;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.session.SessionHead;
import dev.cairn.model.session.SessionMessage;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@link SessionStore} on one SQLite file ({@code sessions.db} in the data directory): a head row per session and a
 * row per message, primary keys doing the conditional work ({@code INSERT OR IGNORE} takes a message number only if
 * it is free; a head changes only {@code WHERE version = ?}). One connection, writes serialised, FULL sync: an
 * acknowledged message is on disk.
 */
public final class SqliteSessionStore implements SessionStore, AutoCloseable {

    private final Connection db;

    public SqliteSessionStore(Path file) {
        try {
            db = SqliteFiles.open(file, "FULL");
            try (Statement s = db.createStatement()) {
                s.execute("""
                        CREATE TABLE IF NOT EXISTS session_heads (
                          team TEXT NOT NULL, session TEXT NOT NULL, version INTEGER NOT NULL,
                          last_seq INTEGER NOT NULL, folded_through INTEGER NOT NULL, summary TEXT NOT NULL,
                          summary_version INTEGER NOT NULL, ended INTEGER NOT NULL, updated_at INTEGER NOT NULL,
                          owner TEXT, PRIMARY KEY (team, session))""");
                addOwnerColumn(s);
                s.execute("""
                        CREATE TABLE IF NOT EXISTS session_messages (
                          team TEXT NOT NULL, session TEXT NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL,
                          role TEXT NOT NULL, content TEXT NOT NULL, occurred_at INTEGER NOT NULL,
                          PRIMARY KEY (team, session, seq))""");
            }
        } catch (SQLException e) {
            throw new StoreFailure("cannot open the session store at " + file, e);
        } catch (java.io.IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A {@code sessions.db} from before sessions had owners lacks the column; its heads read as team sessions (null
     * owner), which is what they were.
     */
    private static void addOwnerColumn(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT 1 FROM pragma_table_info('session_heads') WHERE name = 'owner'")) {
            if (rs.next()) {
                return;
            }
        }
        s.execute("ALTER TABLE session_heads ADD COLUMN owner TEXT");
    }

    @Override
    public synchronized Optional<SessionHead> head(Id team, Id session) {
        try (PreparedStatement ps = db.prepareStatement("SELECT version, last_seq, folded_through, summary, "
                + "summary_version, ended, updated_at, owner FROM session_heads WHERE team = ? AND session = ?")) {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                return Optional.of(new SessionHead(
                        team,
                        session,
                        rs.getLong(1),
                        rs.getLong(2),
                        rs.getLong(3),
                        rs.getString(4),
                        rs.getLong(5),
                        rs.getInt(6) == 1,
                        Instant.ofEpochMilli(rs.getLong(7)),
                        rs.getString(8) == null ? null : new Id(rs.getString(8))));
            }
        } catch (SQLException e) {
            throw new StoreFailure("reading session " + session + " failed", e);
        }
    }

    @Override
    public synchronized boolean putMessage(Id team, Id session, SessionMessage m) {
        try (PreparedStatement ps = db.prepareStatement("INSERT OR IGNORE INTO session_messages "
                + "(team, session, seq, id, role, content, occurred_at) VALUES (?,?,?,?,?,?,?)")) {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            ps.setLong(3, m.seq());
            ps.setString(4, m.id().value());
            ps.setString(5, m.role().name());
            ps.setString(6, m.content());
            ps.setLong(7, m.occurredAt().toEpochMilli());
            return ps.executeUpdate() == 1;
        } catch (SQLException e) {
            throw new StoreFailure("writing a message of session " + session + " failed", e);
        }
    }

    @Override
    public synchronized List<SessionMessage> messages(Id team, Id session, long from, long to) {
        try (PreparedStatement ps = db.prepareStatement("SELECT seq, id, role, content, occurred_at FROM "
                + "session_messages WHERE team = ? AND session = ? AND seq BETWEEN ? AND ? ORDER BY seq")) {
            ps.setString(1, team.value());
            ps.setString(2, session.value());
            ps.setLong(3, from);
            ps.setLong(4, to);
            List<SessionMessage> out = new ArrayList<>();
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(new SessionMessage(
                            new Id(rs.getString(2)),
                            rs.getLong(1),
                            SessionMessage.Role.valueOf(rs.getString(3)),
                            rs.getString(4),
                            Instant.ofEpochMilli(rs.getLong(5))));
                }
            }
            return out;
        } catch (SQLException e) {
            throw new StoreFailure("reading messages of session " + session + " failed", e);
        }
    }

    @Override
    public synchronized void putHead(SessionHead h, long expectedVersion) {
        String sql = expectedVersion == 0
                ? "INSERT OR IGNORE INTO session_heads (version, last_seq, folded_through, summary, summary_version, "
                        + "ended, updated_at, owner, team, session) VALUES (?,?,?,?,?,?,?,?,?,?)"
                : "UPDATE session_heads SET version = ?, last_seq = ?, folded_through = ?, summary = ?, "
                        + "summary_version = ?, ended = ?, updated_at = ?, owner = ? WHERE team = ? AND session = ? "
                        + "AND version = ?";
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            ps.setLong(1, h.version());
            ps.setLong(2, h.lastSeq());
            ps.setLong(3, h.foldedThrough());
            ps.setString(4, h.summary());
            ps.setLong(5, h.summaryVersion());
            ps.setInt(6, h.ended() ? 1 : 0);
            ps.setLong(7, h.updatedAt().toEpochMilli());
            ps.setString(8, h.owner() == null ? null : h.owner().value());
            ps.setString(9, h.team().value());
            ps.setString(10, h.session().value());
            if (expectedVersion != 0) {
                ps.setLong(11, expectedVersion);
            }
            if (ps.executeUpdate() != 1) {
                throw new VersionConflict(
                        "session " + h.session(),
                        expectedVersion,
                        head(h.team(), h.session()).map(SessionHead::version).orElse(0L));
            }
        } catch (SQLException e) {
            throw new StoreFailure("writing session " + h.session() + " failed", e);
        }
    }

    @Override
    public synchronized void close() {
        try {
            db.close();
        } catch (SQLException e) {
            throw new StoreFailure("closing the session store failed", e);
        }
    }
}
