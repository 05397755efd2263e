package dev.cairn.model.memory;

import java.util.Locale;

/** Active memories are recalled; archived ones are kept (cold) but not recalled. */
public enum MemoryState {
    ACTIVE,
    ARCHIVED;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static MemoryState fromWire(String raw) {
        for (MemoryState s : values()) {
            if (s.wire().equals(raw)) {
                return s;
            }
        }
        return null;
    }
}
