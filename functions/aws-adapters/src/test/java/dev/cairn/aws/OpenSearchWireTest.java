package dev.cairn.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.aws.OpenSearchVectorIndex.DocumentIds;
import dev.cairn.aws.OpenSearchVectorIndex.Settings;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import dev.cairn.model.port.VectorIndex.Candidate;
import dev.cairn.model.port.VectorIndex.Entry;
import dev.cairn.model.port.VectorIndex.Filter;
import dev.cairn.model.port.VectorIndex.Key;
import dev.cairn.model.port.VectorIndex.Search;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * The requests the OpenSearch index sends are the ones it sent through opensearch-java 2.19.0 (the
 * typed client it used before: {@code src/test/resources/opensearch-wire/*.json} were recorded from it): the same
 * method, path, query parameters and JSON bodies for creating the index, reading its mapping, bulk writes and deletes
 * (custom and generated ids), the kNN and BM25 searches with their namespace filters, and dropping the index. Its answers
 * are read back into the same candidates, and an overloaded node is a {@link StoreUnavailable}.
 */
class OpenSearchWireTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String MODEL = "test-model/3";

    @Test
    void aLocalNodesRequests_customIds_areTheOnesTheTypedClientSent() throws Exception {
        try (OpenSearchStandIn node = new OpenSearchStandIn("idx");
                OpenSearchVectorIndex index = OpenSearchVectorIndex.plainHttp(node.url(), Settings.localNode("idx"))) {
            index.upsert(List.of(entry("m1", 2, Scope.USER), entry("m2", 1, Scope.TEAM), entry("m1", 1, Scope.USER)));
            List<Candidate> found = index.search(new Search(
                    new Filter(new Id("t1"), new Id("u1"), null, Set.of(MemoryType.FACT), Set.of(new Id("build"))),
                    new float[] {3, 4, 0},
                    MODEL,
                    "how do we build",
                    5));
            index.search(new Search(
                    new Filter(new Id("t1"), new Id("u1"), Scope.USER, Set.of(), Set.of()),
                    new float[] {1, 0, 0},
                    MODEL,
                    null,
                    3));
            index.search(new Search(
                    new Filter(new Id("t1"), new Id("u1"), Scope.TEAM, null, null),
                    new float[] {0, 1, 0},
                    MODEL,
                    " ",
                    3));
            index.delete(List.of(new Key(new Id("t1"), new Id("m1"), 3), new Key(new Id("t1"), new Id("m2"), 1)));
            index.dropIndex();

            assertSameAsRecorded("custom-ids", node.requests);
            // kNN: innerproduct score 1.8 is cosine 0.8; BM25 adds the lexical score of the same version
            assertThat(found).hasSize(2);
            assertThat(found.get(0).id()).isEqualTo(new Id("m1"));
            assertThat(found.get(0).similarity()).isCloseTo(0.8, within(1e-9));
            assertThat(found.get(0).lexical()).isCloseTo(1.8, within(1e-6));
            assertThat(found.get(1).id()).isEqualTo(new Id("m2"));
            assertThat(found.get(1).similarity()).isCloseTo(-1.0, within(1e-9));
        }
    }

    @Test
    void serverlessRequests_generatedIdsAndNoRefresh_areTheOnesTheTypedClientSent() throws Exception {
        Settings serverless = new Settings("idx", "faiss", DocumentIds.GENERATED, "false", null, null, 100);
        try (OpenSearchStandIn node = new OpenSearchStandIn("idx");
                OpenSearchVectorIndex index = OpenSearchVectorIndex.plainHttp(node.url(), serverless)) {
            index.upsert(List.of(entry("m1", 3, Scope.USER), entry("m3", 1, Scope.TEAM)));
            index.delete(List.of(new Key(new Id("t1"), new Id("m1"), 3)));

            assertSameAsRecorded("generated-ids", node.requests);
        }
    }

    @Test
    void anOverloadedNode_isAStoreUnavailable_andAMissingIndexSearchesNothing() throws Exception {
        try (OpenSearchStandIn node = new OpenSearchStandIn("idx");
                OpenSearchVectorIndex index = OpenSearchVectorIndex.plainHttp(node.url(), Settings.localNode("idx"))) {
            Search search = new Search(
                    new Filter(new Id("t1"), new Id("u1"), null, null, null), new float[] {1, 0, 0}, MODEL, "x", 3);
            assertThat(index.modelId()).isEmpty();
            assertThat(index.search(search)).isEmpty();

            node.failWith = 429;
            assertThatThrownBy(() -> index.upsert(List.of(entry("m1", 1, Scope.TEAM))))
                    .isInstanceOf(StoreUnavailable.class);
            node.failWith = 503;
            assertThatThrownBy(index::modelId).isInstanceOf(StoreUnavailable.class);
        }
    }

    @Test
    void signedRequests_carrySigV4ForTheService_andTheSha256OfTheBodyOnTheWire_gzippedOver8KiB() throws Exception {
        try (OpenSearchStandIn node = new OpenSearchStandIn("idx");
                SdkHttpClient http = UrlConnectionHttpClient.create();
                OpenSearchVectorIndex index = new OpenSearchVectorIndex(
                        OpenSearchHttp.signed(
                                http,
                                node.url(),
                                "aoss",
                                Region.US_EAST_1,
                                StaticCredentialsProvider.create(AwsBasicCredentials.create("AKIDEXAMPLE", "secret"))),
                        Settings.localNode("idx"))) {
            float[] big = new float[1024];
            java.util.Arrays.fill(big, 0.25f);
            index.upsert(List.of(new Entry(
                    new Key(new Id("t1"), new Id("m1"), 1),
                    Scope.TEAM,
                    null,
                    MemoryType.FACT,
                    List.of(),
                    "text",
                    null,
                    big,
                    "big/1024")));

            assertThat(node.requests)
                    .extracting(OpenSearchStandIn.Recorded::method)
                    .containsExactly("GET", "PUT", "POST");
            for (OpenSearchStandIn.Recorded r : node.requests) {
                assertThat(r.authorization())
                        .startsWith("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/")
                        .contains("/us-east-1/aoss/aws4_request")
                        .contains("x-amz-content-sha256");
                assertThat(r.contentSha256()).isEqualTo(r.wireSha256());
            }
            OpenSearchStandIn.Recorded bulk = node.requests.get(2);
            assertThat(bulk.contentEncoding()).isEqualTo("gzip");
            assertThat(bulk.body()).contains("\"_id\":\"t1/m1\"").hasSizeGreaterThan(8192);
            assertThat(node.requests.get(0).contentEncoding()).isNull();
        }
    }

    private static Entry entry(String id, long version, Scope scope) {
        return new Entry(
                new Key(new Id("t1"), new Id(id), version),
                scope,
                scope == Scope.USER ? new Id("u1") : null,
                MemoryType.FACT,
                List.of(new Id("build"), new Id("ci")),
                "we build with maven " + id + " v" + version,
                version == 1 ? null : Instant.parse("2026-01-02T03:04:05Z"),
                new float[] {1, 2, 2},
                MODEL);
    }

    /**
     * The kNN and BM25 halves of a search go out together, so their order on the wire is not fixed: consecutive
     * searches are compared in a canonical order.
     */
    private static void assertSameAsRecorded(String scenario, List<OpenSearchStandIn.Recorded> requests)
            throws IOException {
        List<Map<String, String>> sent = new ArrayList<>();
        for (OpenSearchStandIn.Recorded r : requests) {
            Map<String, String> m = new LinkedHashMap<>();
            m.put("method", r.method());
            m.put("path", r.path());
            m.put("query", r.query());
            m.put("body", r.body());
            sent.add(m);
        }
        Comparator<Map<String, String>> searchesByBody =
                (a, b) -> isSearch(a) && isSearch(b) ? a.get("body").compareTo(b.get("body")) : 0;
        List<Map<String, String>> canonical = new ArrayList<>();
        for (int i = 0; i < sent.size(); ) {
            int j = i + 1;
            while (j < sent.size() && isSearch(sent.get(i)) && isSearch(sent.get(j))) {
                j++;
            }
            List<Map<String, String>> run = new ArrayList<>(sent.subList(i, j));
            run.sort(searchesByBody);
            canonical.addAll(run);
            i = j;
        }
        List<Map<String, String>> recorded;
        try (InputStream in = OpenSearchWireTest.class.getResourceAsStream("/opensearch-wire/" + scenario + ".json")) {
            recorded = JSON.readValue(in, new TypeReference<>() {});
        }
        assertThat(canonical).hasSameSizeAs(recorded);
        for (int i = 0; i < recorded.size(); i++) {
            Map<String, String> want = recorded.get(i);
            Map<String, String> got = canonical.get(i);
            String what = "request " + i + " of " + scenario + ": " + want.get("method") + " " + want.get("path");
            assertThat(got.get("method") + " " + got.get("path") + "?" + got.get("query"))
                    .as(what)
                    .isEqualTo(want.get("method") + " " + want.get("path") + "?" + want.get("query"));
            assertThat(jsonLines(got.get("body"))).as(what).isEqualTo(jsonLines(want.get("body")));
        }
    }

    /**
     * A body as JSON trees, one per line (a bulk body is NDJSON): what the node reads. Key order is not compared (the
     * typed client wrote {@code _meta} from a {@code Map.of}, whose order changes from one JVM to the next); numbers
     * are, as written ({@code 0.33333334} is not {@code 0.3333333432674408}).
     */
    private static List<JsonNode> jsonLines(String body) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : body.split("\n")) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    private static boolean isSearch(Map<String, String> request) {
        return request.get("path").endsWith("/_search");
    }
}
