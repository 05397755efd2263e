package dev.cairn.model.cache;

import java.io.IOException;
import org.erdtman.jcs.JsonCanonicalizer;

/**
 * RFC 8785 JSON Canonicalization Scheme (JCS), by the reference implementation's Java port
 * ({@code io.github.erdtman:java-json-canonicalization}): object members sorted by the UTF-16 code units of their
 * names, no white space, strings with the minimal escaping of ECMAScript's JSON.stringify, numbers as IEEE-754 doubles
 * printed the way ECMAScript prints them. Two spellings of one JSON value ({@code {"b":1,"a":1.0}} and
 * {@code {"a":1,"b":1e0}}, escaped or literal characters) give the same text, which is what the tool-cache key hashes
 * and what keeps tool definitions byte-identical in a cached prompt prefix.
 */
public final class CanonicalJson {

    private CanonicalJson() {}

    /** Thrown for text that is not JSON. */
    public static final class NotJson extends IllegalArgumentException {
        public NotJson(String message) {
            super(message);
        }
    }

    public static String canonicalize(String json) {
        if (json == null) {
            throw new NotJson("is missing");
        }
        try {
            return new JsonCanonicalizer(json).getEncodedString();
        } catch (IOException | RuntimeException e) {
            throw new NotJson("is not valid JSON: " + e.getMessage());
        }
    }

    /** Whether {@code json} is an object (a JSON text whose first significant character is an opening brace). */
    public static boolean isObject(String json) {
        return json != null && json.stripLeading().startsWith("{");
    }

    /** Whether {@code json} is an array. */
    public static boolean isArray(String json) {
        return json != null && json.stripLeading().startsWith("[");
    }
}
