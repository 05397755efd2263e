package dev.cairn.it;

import dev.cairn.embedded.SqliteMemoryStore;
import dev.cairn.model.port.MemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import org.junit.jupiter.api.AfterAll;

/** The store contract on the embedded default (one SQLite file for the class). */
class SqliteMemoryStoreContractIT extends MemoryStoreContract {

    private static final SqliteMemoryStore STORE;

    static {
        try {
            STORE = new SqliteMemoryStore(Files.createTempDirectory(LocalServer.workDir(), "sqlite-")
                    .resolve("memories.db"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected MemoryStore store() {
        return STORE;
    }

    @AfterAll
    static void close() {
        STORE.close();
    }
}
