package dev.cairn.aws;

import dev.cairn.model.id.Id;
import java.util.Collection;
import java.util.Map;

/**
 * Where the ids of a memory's index documents are kept when the index generates them (OpenSearch Serverless vector
 * collections accept no custom ids): written once the index has acknowledged the document, read with strong
 * consistency before a replacement or a removal. So deleting an old version never depends on a search seeing it,
 * and Serverless, which has no refresh, shows recent writes to searches only after its own interval.
 */
public interface DocumentLedger {

    /** Document id → the memory version it holds, for every document recorded for the memory. */
    Map<String, Long> documents(Id team, Id id);

    void add(Id team, Id id, String documentId, long version);

    /** Forgets the given documents (deleted from the index); the entry goes when none is left. */
    void remove(Id team, Id id, Collection<String> documentIds);
}
