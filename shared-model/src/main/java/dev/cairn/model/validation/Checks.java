package dev.cairn.model.validation;

import dev.cairn.model.error.FieldError;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.id.Id;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.function.Function;

/**
 * Collects every field problem of one request so that the caller sees all of them at once, then throws a single
 * {@link InvalidInput}. Used by the self-validating command records.
 */
public final class Checks {

    /**
     * How far ahead of the server's clock a client's timestamp may be: clocks drift, but an event cannot have
     * happened in the future, and a future {@code occurred_at} would keep a memory's freshness at 1.0 for years.
     */
    public static final java.time.Duration FUTURE_SKEW = java.time.Duration.ofMinutes(5);

    private final List<FieldError> errors = new ArrayList<>();

    /**
     * Refuses a time before 1970-01-01 (nothing an agent remembers happened earlier; stores keep epoch millis) or
     * more than {@link #FUTURE_SKEW} after {@code now}.
     */
    public Instant bounded(String field, Instant t, Instant now) {
        if (t == null) {
            return null;
        }
        if (t.isBefore(Instant.EPOCH)) {
            fail(field, "is before 1970-01-01T00:00:00Z (got " + t + ")");
            return null;
        }
        if (t.isAfter(now.plus(FUTURE_SKEW))) {
            fail(
                    field,
                    "is in the future (got " + t + ", the server's time is " + now + "; at most "
                            + FUTURE_SKEW.toMinutes() + " minutes of clock skew are accepted)");
            return null;
        }
        return t;
    }

    public void fail(String field, String message) {
        errors.add(new FieldError(field, message));
    }

    public Id id(String field, String raw, boolean required) {
        if (raw == null) {
            if (required) {
                fail(field, "is required");
            }
            return null;
        }
        String problem = Id.problemWith(raw);
        if (problem != null) {
            fail(field, problem + " (ids match ^[a-z0-9][a-z0-9_-]{0,63}$)");
            return null;
        }
        return new Id(raw);
    }

    public List<Id> ids(String field, List<String> raw, int max) {
        if (raw == null) {
            return null;
        }
        if (raw.size() > max) {
            fail(field, "has " + raw.size() + " entries; the most is " + max);
            return null;
        }
        LinkedHashSet<Id> out = new LinkedHashSet<>();
        for (int i = 0; i < raw.size(); i++) {
            Id id = id(field + "[" + i + "]", raw.get(i), true);
            if (id != null) {
                out.add(id);
            }
        }
        return List.copyOf(out);
    }

    public Double unitInterval(String field, Double raw) {
        return range(field, raw, 0.0, 1.0);
    }

    public Double range(String field, Double raw, double min, double max) {
        if (raw == null) {
            return null;
        }
        if (raw.isNaN() || raw < min || raw > max) {
            fail(field, "must be between " + min + " and " + max + " (got " + raw + ")");
            return null;
        }
        return raw;
    }

    public Integer range(String field, Integer raw, int min, int max) {
        if (raw == null) {
            return null;
        }
        if (raw < min || raw > max) {
            fail(field, "must be between " + min + " and " + max + " (got " + raw + ")");
            return null;
        }
        return raw;
    }

    public <E> E oneOf(String field, String raw, Function<String, E> parse, String allowed) {
        if (raw == null) {
            return null;
        }
        E value = parse.apply(raw);
        if (value == null) {
            fail(field, "must be one of " + allowed);
        }
        return value;
    }

    public Instant instant(String field, String raw) {
        if (raw == null) {
            return null;
        }
        try {
            return Instant.parse(raw);
        } catch (DateTimeParseException e) {
            fail(field, "must be an RFC 3339 UTC timestamp such as 2026-01-31T12:00:00Z");
            return null;
        }
    }

    public boolean ok() {
        return errors.isEmpty();
    }

    public void throwIfAny() {
        if (!errors.isEmpty()) {
            throw new InvalidInput(errors);
        }
    }
}
