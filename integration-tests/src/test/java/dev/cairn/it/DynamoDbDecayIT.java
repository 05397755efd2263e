package dev.cairn.it;

import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.aws.OpenSearchVectorIndex;
import dev.cairn.aws.s3.S3ColdStore;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The decay contract on the local stand-ins of the AWS stores: dynalite, S3Mock and an OpenSearch node with k-NN, each
 * a real server in its own process. The tests and their assertions are inherited from {@link OnnxDecayContract}; this
 * class only supplies the stores.
 */
@ExtendWith({Dynalite.class, S3Mock.class, OpenSearchNode.class})
class DynamoDbDecayIT extends OnnxDecayContract {

    private static final String NAME = "cairn-decay";
    private static DynamoDbMemoryStore store;
    private static S3ColdStore cold;
    private static OpenSearchVectorIndex index;

    @BeforeAll
    static void open() {
        store = new DynamoDbMemoryStore(Dynalite.client(), NAME);
        store.createTableIfMissing();
        S3Mock.client().createBucket(b -> b.bucket(NAME));
        cold = new S3ColdStore(S3Mock.client(), NAME);
        // no refresh per write (10,000 of them): the test refreshes before it searches
        index = OpenSearchVectorIndex.plainHttp(
                URI.create(OpenSearchNode.url()),
                new OpenSearchVectorIndex.Settings(
                        NAME, "lucene", OpenSearchVectorIndex.DocumentIds.CUSTOM, "false", 1, 0, 200));
    }

    @Override
    protected void refresh() {
        try {
            HttpResponse<String> r = HttpClient.newHttpClient()
                    .send(
                            HttpRequest.newBuilder(URI.create(OpenSearchNode.url() + "/" + NAME + "/_refresh"))
                                    .POST(HttpRequest.BodyPublishers.noBody())
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("refresh answered " + r.statusCode() + ": " + r.body());
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected Stores stores() {
        return new Stores(store, cold, index);
    }
}
