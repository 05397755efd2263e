package dev.cairn.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.model.error.CairnException;
import dev.cairn.model.error.FieldError;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretRejected;
import java.util.List;

/**
 * An RFC 9457 problem document; {@code errors} lists field-level problems, {@code findings} the secrets a write was
 * refused for (rule ids and offsets, never the secret).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(
        String type, String title, int status, String detail, List<FieldError> errors, List<FindingView> findings) {

    /**
     * A secret finding on the wire: {@code [start, end)} in UTF-16 code units of the submitted text, and the
     * verification hint (what was checked offline, and whether it passed; see {@link Finding}).
     */
    public record FindingView(
            String ruleId, String description, int start, int end, String check, boolean checkPassed) {

        public static List<FindingView> of(List<Finding> findings) {
            return findings.stream()
                    .map(f -> new FindingView(
                            f.ruleId(), f.description(), f.start(), f.end(), f.check(), f.checkPassed()))
                    .toList();
        }
    }

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://cairn.dev/problems/";

    public static Problem of(String kind, String title, int status, String detail) {
        return new Problem(TYPE_BASE + kind, title, status, detail, null, null);
    }

    public static Problem of(String kind, String title, int status, String detail, List<FieldError> errors) {
        return new Problem(
                TYPE_BASE + kind, title, status, detail, errors == null || errors.isEmpty() ? null : errors, null);
    }

    /** A domain error as a problem document, with its field errors or secret findings when it has them. */
    public static Problem of(CairnException e, int status) {
        List<FieldError> errors = e instanceof InvalidInput ii ? ii.errors() : null;
        List<FindingView> findings = e instanceof SecretRejected sr ? FindingView.of(sr.findings()) : null;
        return new Problem(
                TYPE_BASE + e.kind(),
                e.title(),
                status,
                e.detail(),
                errors == null || errors.isEmpty() ? null : errors,
                findings);
    }
}
