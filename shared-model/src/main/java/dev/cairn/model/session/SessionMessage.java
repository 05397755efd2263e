package dev.cairn.model.session;

import dev.cairn.model.id.Id;
import java.time.Instant;

/** One message of a session, numbered in the order the session accepted it ({@code seq} from 1). */
public record SessionMessage(Id id, long seq, Role role, String content, Instant occurredAt) {

    public enum Role {
        USER,
        ASSISTANT,
        TOOL
    }
}
