package dev.cairn.it;

import dev.cairn.embedded.SqliteSessionStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.SessionStoreContract;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;

/** The session-store contract on the embedded default (one SQLite file for the class). The tests and their
 * assertions are inherited from the contract class; this class only supplies the backend.
 */
class SqliteSessionStoreContractIT extends SessionStoreContract {

    private static final SqliteSessionStore STORE;

    static {
        try {
            STORE = new SqliteSessionStore(Files.createTempDirectory(LocalServer.workDir(), "sessions-")
                    .resolve("sessions.db"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected SessionStore store() {
        return STORE;
    }

    @AfterAll
    static void close() {
        STORE.close();
    }
}
