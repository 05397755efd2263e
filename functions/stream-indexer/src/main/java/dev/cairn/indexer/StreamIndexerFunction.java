package dev.cairn.indexer;

import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.aws.DynamoDbStreamIndexing;
import dev.cairn.model.index.Indexer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

/**
 * The DynamoDB Streams indexer. The stack points it at Quarkus' handler
 * ({@code io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest}), which hands each event here; the
 * {@link Indexer} is the application's, on the adapters {@code cairn.backend.*} selects and configured from
 * {@code cairn.aws.*} exactly as the API functions are (the stack gives every function the same environment).
 */
public class StreamIndexerFunction implements RequestStreamHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final DynamoDbStreamIndexing indexing;

    public StreamIndexerFunction(Indexer indexer) {
        this.indexing = new DynamoDbStreamIndexing(indexer);
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        DynamoDbStreamIndexing.Outcome outcome = indexing.handle(JSON.readTree(input));
        JSON.writeValue(output, outcome.response());
    }
}
