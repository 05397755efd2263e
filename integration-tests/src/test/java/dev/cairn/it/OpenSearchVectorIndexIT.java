package dev.cairn.it;

import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.aws.OpenSearchVectorIndex.DocumentIds;
import dev.cairn.aws.OpenSearchVectorIndex.Settings;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.port.VectorIndexContract;
import java.net.URI;
import java.util.UUID;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The index contract on a real OpenSearch 2.19.1 node with the k-NN plugin (lucene engine), with document ids of
 * Cairn's own ({@code team/id}, external versions): an index per test. The tests and their assertions are inherited
 * from {@link VectorIndexContract}; this class only supplies the backend.
 */
@ExtendWith(OpenSearchNode.class)
class OpenSearchVectorIndexIT extends VectorIndexContract {

    private Settings settings;

    protected DocumentIds documentIds() {
        return DocumentIds.CUSTOM;
    }

    @Override
    protected VectorIndex open() {
        String name = "contract-" + UUID.randomUUID().toString().substring(0, 8);
        settings = new Settings(name, "lucene", documentIds(), "true", 1, 0, 200);
        return reopen();
    }

    @Override
    protected VectorIndex reopen() {
        return OpenSearchVectorIndex.plainHttp(URI.create(OpenSearchNode.url()), settings);
    }
}
