package dev.cairn.it;

import java.net.URI;
import org.junit.jupiter.api.Assumptions;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.localstack.LocalStackContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * LocalStack (DynamoDB, S3) through Testcontainers, for machines with a Docker engine: {@code -Dcairn.it.backend=
 * localstack} runs the API tests on it, the table on its DynamoDB and the cold tier and large tool results in a bucket
 * on its S3 (the vector index stays on the local OpenSearch node: LocalStack's OpenSearch
 * downloads a distribution at run time). Where no Docker engine exists, whatever asks for it is skipped, not failed.
 */
final class LocalStack {

    static final String IMAGE = "localstack/localstack:4.4";
    private static LocalStackContainer container;

    private LocalStack() {}

    static boolean selected() {
        return "localstack".equals(System.getProperty("cairn.it.backend", "embedded"));
    }

    /** Starts the container once per run; skips the calling test when there is no Docker engine. */
    static synchronized LocalStackContainer ensureStarted() {
        Assumptions.assumeTrue(
                DockerClientFactory.instance().isDockerAvailable(),
                "LocalStack needs a Docker engine, and this machine has none");
        if (container == null) {
            container = new LocalStackContainer(DockerImageName.parse(IMAGE)).withServices("dynamodb", "s3");
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "stop-localstack"));
        }
        return container;
    }

    static URI endpoint() {
        return ensureStarted().getEndpoint();
    }

    /** A bucket on LocalStack's S3 (the server under test does not create buckets; the stack does in AWS). */
    static synchronized void ensureBucket(String name) {
        LocalStackContainer c = ensureStarted();
        try (var s3 = software.amazon.awssdk.services.s3.S3Client.builder()
                .endpointOverride(c.getEndpoint())
                .forcePathStyle(true)
                .region(software.amazon.awssdk.regions.Region.of(c.getRegion()))
                .httpClient(software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient.create())
                .credentialsProvider(software.amazon.awssdk.auth.credentials.StaticCredentialsProvider.create(
                        software.amazon.awssdk.auth.credentials.AwsBasicCredentials.create(
                                c.getAccessKey(), c.getSecretKey())))
                .build()) {
            if (s3.listBuckets().buckets().stream().noneMatch(b -> b.name().equals(name))) {
                s3.createBucket(b -> b.bucket(name));
            }
        }
    }
}
