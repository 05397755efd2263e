package dev.cairn.model.cache;

import java.util.Locale;

/** What a cached result was valid for: the file's mtime, the resource's ETag, or a content hash. */
public record Validator(Kind kind, String value) {

    public enum Kind {
        MTIME,
        ETAG,
        HASH;

        public String wire() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Kind fromWire(String raw) {
            return switch (raw) {
                case "mtime" -> MTIME;
                case "etag" -> ETAG;
                case "hash" -> HASH;
                default -> throw new IllegalArgumentException(raw);
            };
        }
    }
}
