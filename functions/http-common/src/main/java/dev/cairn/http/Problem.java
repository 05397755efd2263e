package dev.cairn.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.model.error.FieldError;
import java.util.List;

/** An RFC 9457 problem document; {@code errors} lists field-level problems when there are any. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";
    private static final String TYPE_BASE = "https://cairn.dev/problems/";

    public static Problem of(String kind, String title, int status, String detail) {
        return new Problem(TYPE_BASE + kind, title, status, detail, null);
    }

    public static Problem of(String kind, String title, int status, String detail, List<FieldError> errors) {
        return new Problem(TYPE_BASE + kind, title, status, detail, errors == null || errors.isEmpty() ? null : errors);
    }
}
