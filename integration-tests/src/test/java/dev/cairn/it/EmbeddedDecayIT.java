package dev.cairn.it;

import dev.cairn.embedded.FileColdStore;
import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.embedded.SqliteMemoryStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * The decay contract on the embedded default: SQLite, cold copies as gzip files, Lucene. The tests and their
 * assertions are inherited from {@link OnnxDecayContract}; this class only supplies the stores.
 */
class EmbeddedDecayIT extends OnnxDecayContract {

    private static SqliteMemoryStore store;
    private static FileColdStore cold;
    private static LuceneVectorIndex index;

    @BeforeAll
    static void open() throws IOException {
        Path dir = Files.createTempDirectory(LocalServer.workDir(), "decay-");
        store = new SqliteMemoryStore(dir.resolve("memories.db"));
        cold = new FileColdStore(dir.resolve("cold"));
        index = new LuceneVectorIndex(dir.resolve("index"));
    }

    @AfterAll
    static void close() throws Exception {
        index.close();
        store.close();
    }

    @Override
    protected Stores stores() {
        return new Stores(store, cold, index);
    }
}
