package dev.cairn.http;

import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.error.PreconditionRequired;

/** Reads record versions from {@code If-Match} and writes them as {@code ETag}s ({@code "3"}). */
public final class Versions {

    private Versions() {}

    public static String etag(long version) {
        return "\"" + version + "\"";
    }

    /** Required If-Match: the version the client last read. */
    public static long requireIfMatch(String header) {
        if (header == null || header.isBlank()) {
            throw new PreconditionRequired("send If-Match: \"<version>\" with the version you last read; "
                    + "changes are applied only to that version");
        }
        return parse(header);
    }

    /** Optional If-Match; null when absent. */
    public static Long optionalIfMatch(String header) {
        return header == null || header.isBlank() ? null : parse(header);
    }

    private static long parse(String header) {
        String v = header.trim();
        if (v.startsWith("W/")) {
            v = v.substring(2);
        }
        if (v.length() >= 2 && v.startsWith("\"") && v.endsWith("\"")) {
            v = v.substring(1, v.length() - 1);
        }
        try {
            long version = Long.parseLong(v);
            if (version >= 1) {
                return version;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new InvalidInput("If-Match", "must be a version number such as \"3\" (as sent in ETag)");
    }
}
