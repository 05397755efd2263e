package dev.cairn.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/** What the single-connection SQLite stores share: opening a file in WAL mode, and running one statement. */
final class SqliteFiles {

    private SqliteFiles() {}

    /** Opens (creating its folder) a database in WAL mode with {@code synchronous} (FULL or NORMAL). */
    static Connection open(Path file, String synchronous) throws SQLException, IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Connection db = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA journal_mode=WAL");
            s.execute("PRAGMA synchronous=" + synchronous);
            s.execute("PRAGMA busy_timeout=10000");
        }
        return db;
    }

    /** One statement's work, which may throw what JDBC throws. */
    interface Work<T> {
        T apply(PreparedStatement ps) throws SQLException;
    }

    /** Prepares {@code sql} on {@code db} and runs {@code work}; a failure becomes a {@link StoreFailure}. */
    static <T> T run(Connection db, String store, String sql, Work<T> work) {
        try (PreparedStatement ps = db.prepareStatement(sql)) {
            return work.apply(ps);
        } catch (SQLException e) {
            throw new StoreFailure(store + ": " + e.getMessage(), e);
        }
    }

    interface Tx {
        void run() throws SQLException;
    }

    /** Runs {@code work} in one transaction on {@code db}: all of it commits or none; a failure rolls back. */
    static void inTransaction(Connection db, String store, Tx work) {
        try {
            db.setAutoCommit(false);
            try {
                work.run();
                db.commit();
            } catch (SQLException | RuntimeException e) {
                db.rollback();
                throw e;
            } finally {
                db.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreFailure(store + ": write failed", e);
        }
    }
}
