package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.embedded.SqliteMemoryStore;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.MemoryStoreContract;
import dev.cairn.model.testkit.Memories;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** The store contract on the embedded default (one SQLite file for the class). */
class SqliteMemoryStoreContractIT extends MemoryStoreContract {

    private static final Path FILE;
    private static final SqliteMemoryStore STORE;

    static {
        try {
            FILE = Files.createTempDirectory(LocalServer.workDir(), "sqlite-").resolve("memories.db");
            STORE = new SqliteMemoryStore(FILE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void everyAcknowledgedWrite_shouldBeOnDisk_forASecondProcessToRead() {
        Memory m = Memories.memory()
                .id("durable1")
                .team("durability")
                .content("on disk")
                .createdAt(Instant.parse("2026-11-29T00:00:00Z"))
                .build();
        STORE.insertAll(List.of(m));
        try (SqliteMemoryStore other = new SqliteMemoryStore(FILE)) {
            assertThat(other.get(new Id("durability"), new Id("durable1"))).contains(m);
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
