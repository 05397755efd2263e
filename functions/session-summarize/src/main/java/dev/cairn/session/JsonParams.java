package dev.cairn.session;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.model.error.InvalidInput;

/** What the session routes read alike from a request: JSON members kept as text, and whole-number query values. */
final class JsonParams {

    private JsonParams() {}

    /** JSON as text, as the client sent it (Jackson keeps each number's value); absent → null. */
    static String text(JsonNode node) {
        return node == null || node.isMissingNode() ? null : node.toString();
    }

    /** A non-negative whole number from a query parameter, or the caller's error for {@code field}. */
    static long wholeNumber(String field, String raw) {
        try {
            long n = Long.parseLong(raw);
            if (n < 0) {
                throw new InvalidInput(field, "must not be negative");
            }
            return n;
        } catch (NumberFormatException e) {
            throw new InvalidInput(field, "must be a whole number");
        }
    }
}
