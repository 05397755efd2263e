package dev.cairn.it;

import dev.cairn.embedded.LuceneVectorIndex;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.port.VectorIndexContract;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The index contract on the embedded default: a Lucene folder per test. The tests and their assertions come from
 * {@link VectorIndexContract}; this class only supplies the backend.
 */
class LuceneVectorIndexContractIT extends VectorIndexContract {

    private Path dir;

    @Override
    protected VectorIndex open() throws Exception {
        dir = Files.createTempDirectory(LocalServer.workDir(), "lucene-");
        return new LuceneVectorIndex(dir);
    }

    @Override
    protected VectorIndex reopen() {
        return new LuceneVectorIndex(dir);
    }
}
