package dev.cairn.model.sync;

import dev.cairn.model.id.Id;
import dev.cairn.model.memory.Memory;
import dev.cairn.model.memory.Scope;

/**
 * Recognises the team memories that team sync projects its facts to. Their id is {@code tf} + 24 hex digits
 * ({@link SyncReplay#memoryId}); a memory created through the memories API has a ULID, whose first character is a
 * digit 0–7, so the two can never be confused.
 */
public final class SyncedFacts {

    static final String PREFIX = "tf";

    private SyncedFacts() {}

    public static boolean isProjection(Memory m) {
        return m.scope() == Scope.TEAM && isProjectionId(m.id());
    }

    static boolean isProjectionId(Id id) {
        String v = id.value();
        if (v.length() != 26 || !v.startsWith(PREFIX)) {
            return false;
        }
        for (int i = 2; i < v.length(); i++) {
            char ch = v.charAt(i);
            if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f'))) {
                return false;
            }
        }
        return true;
    }
}
