package dev.cairn.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the single-connection SQLite stores share: opening a file in WAL mode, running one statement, running a
 * transaction.
 */
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

    /** A transaction's statements. */
    interface Transaction {
        void run() throws SQLException;
    }

    /**
     * Runs {@code work} in one transaction; a failure becomes a {@link StoreFailure} ("{@code what} failed") whose
     * cause is the first error. When a statement or the commit fails on a full disk (SQLITE_FULL) or an I/O error,
     * SQLite has often rolled the transaction back already, so the rollback and the return to autocommit fail too
     * ("no transaction is active"): those errors are only attached as suppressed, never thrown instead, or a full
     * disk would read as an unknown error (500 instead of 503). The connection is back in autocommit either way,
     * so the next write starts afresh once space returns.
     */
    static void inTransaction(Connection c, String what, Transaction work) {
        Exception failure = null;
        try {
            c.setAutoCommit(false);
            try {
                work.run();
                c.commit();
            } catch (SQLException | RuntimeException e) {
                failure = e;
                try {
                    c.rollback();
                } catch (SQLException | RuntimeException alreadyRolledBack) {
                    e.addSuppressed(alreadyRolledBack);
                }
            }
        } catch (SQLException e) {
            failure = e;
        }
        try {
            c.setAutoCommit(true);
        } catch (SQLException e) {
            // the driver counts itself in autocommit before it sends the COMMIT that finds no transaction
            if (failure == null) {
                failure = e;
            } else {
                failure.addSuppressed(e);
            }
        }
        if (failure instanceof RuntimeException r) {
            throw r;
        } else if (failure != null) {
            throw new StoreFailure(what + " failed", failure);
        }
    }
}
