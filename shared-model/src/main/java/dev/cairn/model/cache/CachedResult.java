package dev.cairn.model.cache;

import dev.cairn.model.id.Id;
import java.time.Instant;

/**
 * One cached tool result. {@code result} is the JSON text of the result as the agent sent it; {@code bytes} its UTF-8
 * size (what the per-session cap counts); {@code validator} what the result was valid for (null when none was given).
 */
public record CachedResult(
        Id team,
        Id session,
        String key,
        String tool,
        String result,
        long bytes,
        Instant storedAt,
        Instant expiresAt,
        Validator validator) {

    public boolean expiredAt(Instant now) {
        return !expiresAt.isAfter(now);
    }
}
