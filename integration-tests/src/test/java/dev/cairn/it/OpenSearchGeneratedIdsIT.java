package dev.cairn.it;

import dev.cairn.aws.OpenSearchVectorIndex.DocumentIds;
import dev.cairn.model.port.VectorIndexContract;

/**
 * The index contract with server-generated document ids, the only kind OpenSearch Serverless vector collections
 * accept: versions are fields, older documents of a memory are deleted after the newer one is written.
 * The tests and their assertions come from {@link VectorIndexContract}; this class only changes the id mode.
 */
class OpenSearchGeneratedIdsIT extends OpenSearchVectorIndexIT {

    @Override
    protected DocumentIds documentIds() {
        return DocumentIds.GENERATED;
    }

    @Override
    protected boolean remembersRemovals() {
        return false;
    }
}
