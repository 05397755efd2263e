package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.MissingNode;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.HttpExecuteRequest;
import software.amazon.awssdk.http.HttpExecuteResponse;
import software.amazon.awssdk.http.SdkHttpClient;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.http.auth.spi.signer.SignedRequest;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;

/**
 * The few OpenSearch REST calls the index makes (create index, get mapping, bulk, search, delete index), as JSON over
 * the AWS SDK's HTTP client: SigV4-signed ({@code aoss} for Serverless, {@code es} for a managed domain) in AWS, the
 * same path unsigned for a plain node. Why not opensearch-java: its 6 MB of generated request classes were the largest
 * jar of every Lambda package for six endpoints, and it kept the requests out of sight of the tests
 * ({@code OpenSearchWireTest} compares them with the ones that client sent).
 *
 * <p>As opensearch-java's AWS transport did: request bodies over 8 KiB are gzipped, gzipped answers are accepted, and a
 * signed request carries the SHA-256 of its body in {@code x-amz-content-sha256}, which OpenSearch Serverless requires.
 */
public final class OpenSearchHttp implements AutoCloseable {

    /** OpenSearch answered with an error status; {@code type} and {@code reason} are from its error body if it had one. */
    public static final class Failure extends RuntimeException {
        private final int status;
        private final String type;

        Failure(int status, String type, String reason) {
            super("OpenSearch answered " + status + ": " + type + (reason == null ? "" : " " + reason));
            this.status = status;
            this.type = type;
        }

        public int status() {
            return status;
        }

        public String type() {
            return type;
        }
    }

    /** The SigV4 parameters of a signed endpoint. */
    private record Signing(String service, Region region, AwsCredentialsProvider credentials) {}

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int COMPRESS_OVER = 8192;

    private final SdkHttpClient http;
    private final boolean ownsHttp;
    private final URI endpoint;
    private final Signing signing;
    private final AwsV4HttpSigner signer;

    private OpenSearchHttp(SdkHttpClient http, boolean ownsHttp, URI endpoint, Signing signing) {
        this.http = http;
        this.ownsHttp = ownsHttp;
        String base = endpoint.toString();
        this.endpoint = URI.create(base.endsWith("/") ? base.substring(0, base.length() - 1) : base);
        this.signing = signing;
        this.signer = signing == null ? null : AwsV4HttpSigner.create();
    }

    /** A node over plain HTTP (a local node, the tests' stand-in), through the given HTTP client. */
    public static OpenSearchHttp plain(SdkHttpClient http, URI endpoint) {
        return new OpenSearchHttp(http, false, endpoint, null);
    }

    /** A node over plain HTTP through an HTTP client of its own, closed with it. */
    public static OpenSearchHttp plain(URI endpoint) {
        return new OpenSearchHttp(UrlConnectionHttpClient.create(), true, endpoint, null);
    }

    /** A Serverless collection ({@code aoss}) or a managed domain ({@code es}) at {@code https://host}. */
    public static OpenSearchHttp signed(
            SdkHttpClient http, String host, String service, Region region, AwsCredentialsProvider credentials) {
        return signed(http, URI.create("https://" + host), service, region, credentials);
    }

    /** Signed requests to any endpoint (the tests sign for a stand-in on plain HTTP). */
    static OpenSearchHttp signed(
            SdkHttpClient http, URI endpoint, String service, Region region, AwsCredentialsProvider credentials) {
        return new OpenSearchHttp(http, false, endpoint, new Signing(service, region, credentials));
    }

    /**
     * Sends one request and returns the parsed answer ({@link MissingNode} when it had no body).
     *
     * @param query the raw query string without {@code ?}, or null
     * @param body  the request body (JSON, or NDJSON for a bulk), or null
     * @throws Failure     when OpenSearch answers with a status of 300 or more
     * @throws IOException when it does not answer
     */
    public JsonNode send(SdkHttpMethod method, String path, String query, byte[] body) throws IOException {
        SdkHttpRequest.Builder request = SdkHttpRequest.builder()
                .method(method)
                .uri(URI.create(endpoint + path + (query == null ? "" : "?" + query)))
                .putHeader("Accept-Encoding", "gzip");
        byte[] payload = body;
        if (payload != null) {
            request.putHeader("Content-Type", "application/json");
            if (payload.length > COMPRESS_OVER) {
                payload = gzip(payload);
                request.putHeader("Content-Encoding", "gzip");
            }
            request.putHeader("Content-Length", String.valueOf(payload.length));
        }
        SdkHttpRequest toSend = request.build();
        ContentStreamProvider content = payload == null ? null : ContentStreamProvider.fromByteArrayUnsafe(payload);
        if (signing != null) {
            toSend = sign(toSend, content, payload == null ? new byte[0] : payload);
        }
        HttpExecuteRequest.Builder execute = HttpExecuteRequest.builder().request(toSend);
        if (content != null) {
            execute.contentStreamProvider(content);
        }
        HttpExecuteResponse response = http.prepareRequest(execute.build()).call();
        int status = response.httpResponse().statusCode();
        byte[] answer;
        try (InputStream in =
                response.responseBody().map(InputStream.class::cast).orElse(null)) {
            answer = in == null ? new byte[0] : in.readAllBytes();
        }
        boolean zipped = response.httpResponse()
                .firstMatchingHeader("Content-Encoding")
                .map(e -> e.contains("gzip"))
                .orElse(false);
        if (zipped && answer.length > 0) {
            answer = new GZIPInputStream(new ByteArrayInputStream(answer)).readAllBytes();
        }
        if (status >= 300) {
            throw failure(status, answer);
        }
        return answer.length == 0 ? MissingNode.getInstance() : JSON.readTree(answer);
    }

    private SdkHttpRequest sign(SdkHttpRequest request, ContentStreamProvider content, byte[] payload) {
        SdkHttpRequest withHash = request.toBuilder()
                .putHeader("x-amz-content-sha256", sha256Hex(payload))
                .build();
        SignedRequest signed = signer.sign(r -> r.identity(signing.credentials().resolveCredentials())
                .request(withHash)
                .payload(content)
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, signing.service())
                .putProperty(AwsV4HttpSigner.REGION_NAME, signing.region().id()));
        return signed.request();
    }

    /** An OpenSearch error body ({@code {"error": {"type", "reason"}}}), or AWS's ({@code {"message"}}) on a 403. */
    private static Failure failure(int status, byte[] answer) {
        String type = status == 403 ? "security_exception" : "http_exception";
        String reason = null;
        try {
            JsonNode body = JSON.readTree(answer);
            JsonNode error = body.path("error");
            if (error.isObject()) {
                type = error.path("type").asText(type);
                reason = error.path("reason").asText(null);
            } else if (error.isTextual()) {
                reason = error.asText();
            } else {
                reason = body.has("message")
                        ? body.get("message").asText()
                        : body.path("Message").asText(null);
            }
        } catch (IOException | RuntimeException e) {
            // not JSON: the status says enough
        }
        return new Failure(status, type, reason);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(bytes.length / 4);
        try (GZIPOutputStream zip = new GZIPOutputStream(out)) {
            zip.write(bytes);
        }
        return out.toByteArray();
    }

    private static String sha256Hex(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    @Override
    public void close() {
        if (ownsHttp) {
            http.close();
        }
    }
}
