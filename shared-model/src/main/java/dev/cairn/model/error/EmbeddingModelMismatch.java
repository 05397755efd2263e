package dev.cairn.model.error;

/**
 * Vectors from two embedding models are not comparable; mixing them would return confident nonsense. A query (or a
 * write) embedded with one model against an index built with another is refused.
 */
public class EmbeddingModelMismatch extends CairnException {

    public EmbeddingModelMismatch(String indexModel, String requestedModel) {
        super("the memory index holds vectors of embedding model '" + indexModel + "' but this server embeds with '"
                + requestedModel + "'; configure cairn.embedding.model=" + indexModel
                + " or start from a new data directory");
    }

    @Override
    public String kind() {
        return "embedding-model-mismatch";
    }

    @Override
    public String title() {
        return "Embedding model mismatch";
    }
}
