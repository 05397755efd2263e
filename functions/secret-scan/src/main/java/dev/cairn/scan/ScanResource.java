package dev.cairn.scan;

import dev.cairn.http.Problem;
import dev.cairn.http.RequestCaller;
import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretScanner;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * {@code POST /v1/scan}: the findings in a text and the text with them redacted, by the same rules every write, sync
 * and read path applies. Any authenticated caller may scan; nothing is stored or logged.
 */
@Path("/v1/scan")
@Consumes(MediaType.APPLICATION_JSON)
@Produces(MediaType.APPLICATION_JSON)
public class ScanResource {

    /** A scan request holds one text; 1 MiB covers a pasted file or a long transcript. */
    static final int MAX_BYTES = 1 << 20;

    private final SecretScanner scanner;
    private final RequestCaller request;

    public ScanResource(SecretScanner scanner, RequestCaller request) {
        this.scanner = scanner;
        this.request = request;
    }

    public record ScanRequest(String content) {}

    public record ScanResult(List<Problem.FindingView> findings, String redacted, String rulesVersion) {}

    @POST
    public ScanResult scan(ScanRequest body) {
        request.caller(); // authenticated by the bearer filter; no team is involved
        if (body == null || body.content() == null) {
            throw new InvalidInput("content", "is required: the text to scan");
        }
        int bytes = body.content().getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_BYTES) {
            throw new ContentTooLarge("content", bytes, MAX_BYTES);
        }
        List<Finding> findings = scanner.scan(body.content());
        return new ScanResult(
                Problem.FindingView.of(findings), SecretScanner.redact(body.content(), findings), scanner.version());
    }
}
