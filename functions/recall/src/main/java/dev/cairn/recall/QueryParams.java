package dev.cairn.recall;

import dev.cairn.model.error.InvalidInput;

/** Query parameters arrive as text; a malformed number is the caller's error, reported like any other field. */
final class QueryParams {

    private QueryParams() {}

    static Integer integer(String name, String raw) {
        if (raw == null) {
            return null;
        }
        try {
            return Integer.valueOf(raw.trim());
        } catch (NumberFormatException e) {
            throw new InvalidInput(name, "must be a whole number");
        }
    }
}
