package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A transaction that fails because the database is full: the error says so (the API turns it into 503, not 500),
 * nothing of the transaction stays, and the same connection writes again once there is room. SQLite's
 * {@code max_page_count} makes the database "full" with SQLITE_FULL, exactly the error a full disk gives.
 */
class SqliteFullDatabaseTest {

    @TempDir
    Path dir;

    @Test
    void aTransactionOnAFullDatabase_failsAsFull_keepsNothing_andTheConnectionWritesAgainOnceThereIsRoom()
            throws Exception {
        try (Connection db = SqliteFiles.open(dir.resolve("full.db"), "FULL")) {
            try (Statement s = db.createStatement()) {
                s.execute("CREATE TABLE t (v TEXT)");
                s.execute("INSERT INTO t VALUES ('before')");
                // GIVEN a database that cannot grow by another page
                long pages = pageCount(s);
                s.execute("PRAGMA max_page_count=" + pages);
            }

            // WHEN one transaction writes more than fits
            Throwable t = catchThrowable(() -> SqliteFiles.inTransaction(db, "write", () -> {
                try (PreparedStatement ps = db.prepareStatement("INSERT INTO t VALUES (?)")) {
                    for (int i = 0; i < 200; i++) {
                        ps.setString(1, "row " + i + " " + "y".repeat(2000));
                        ps.executeUpdate();
                    }
                }
            }));

            // THEN the failure is the full database itself, not a follow-up "no transaction is active"
            assertThat(t).isInstanceOf(StoreFailure.class).hasMessage("write failed");
            assertThat(t.getCause()).isInstanceOf(SQLException.class).hasMessageContaining("SQLITE_FULL");
            // AND none of the transaction's rows stayed
            try (Statement s = db.createStatement()) {
                assertThat(count(s)).isEqualTo(1);
            }

            // WHEN there is room again, THEN the same connection commits a transaction
            try (Statement s = db.createStatement()) {
                s.execute("PRAGMA max_page_count=1073741823");
            }
            SqliteFiles.inTransaction(db, "write", () -> {
                try (Statement s = db.createStatement()) {
                    s.execute("INSERT INTO t VALUES ('after')");
                }
            });
            assertThat(db.getAutoCommit()).isTrue();
            try (Statement s = db.createStatement()) {
                assertThat(count(s)).isEqualTo(2);
            }
        }
    }

    private static long pageCount(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("PRAGMA page_count")) {
            r.next();
            return r.getLong(1);
        }
    }

    private static long count(Statement s) throws SQLException {
        try (ResultSet r = s.executeQuery("SELECT count(*) FROM t")) {
            r.next();
            return r.getLong(1);
        }
    }
}
