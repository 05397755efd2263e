package dev.cairn.model.memory;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/** What kind of knowledge a memory holds. */
public enum MemoryType {
    PREFERENCE,
    CONVENTION,
    DECISION,
    ENVIRONMENT,
    FACT,
    EPISODE;

    public static final String ALLOWED =
            Arrays.stream(values()).map(MemoryType::wire).collect(Collectors.joining(", "));

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MemoryType fromWire(String raw) {
        for (MemoryType t : values()) {
            if (t.wire().equals(raw)) {
                return t;
            }
        }
        return null;
    }
}
