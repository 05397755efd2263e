package dev.cairn.client;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * An error answer of the API, read from its problem+json body (RFC 9457): the HTTP status, the problem's
 * {@code type}, {@code title} and {@code detail}, and the field errors when the server named fields. The message is
 * the detail, so a log line says what to fix.
 */
public class CairnApiException extends RuntimeException {

    /** One field the server refused, as {@code errors[]} names it. */
    public record FieldError(String field, String message) {}

    private final int status;
    private final String type;
    private final String title;
    private final String detail;
    private final List<FieldError> errors;
    private final transient JsonNode body;

    public CairnApiException(
            int status, String type, String title, String detail, List<FieldError> errors, JsonNode body) {
        super(status + " " + (title == null ? "" : title + ": ") + (detail == null ? "(no detail)" : detail));
        this.status = status;
        this.type = type;
        this.title = title;
        this.detail = detail;
        this.errors = errors == null ? List.of() : List.copyOf(errors);
        this.body = body;
    }

    public int status() {
        return status;
    }

    public String type() {
        return type;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return detail;
    }

    public List<FieldError> errors() {
        return errors;
    }

    /** The whole answer body (null when it was not JSON), for members this class does not model. */
    public JsonNode body() {
        return body;
    }
}
