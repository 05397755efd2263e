package dev.cairn.model.memory;

import java.util.Locale;

/** Whose memory this is: one user's inside a team, or the whole team's. */
public enum Scope {
    USER,
    TEAM;

    public String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    public static Scope fromWire(String raw) {
        for (Scope s : values()) {
            if (s.wire().equals(raw)) {
                return s;
            }
        }
        return null;
    }
}
