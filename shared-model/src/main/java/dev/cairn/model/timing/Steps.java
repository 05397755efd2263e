package dev.cairn.model.timing;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The steps of one request on the calling thread and how long each took, for a {@code Server-Timing} header. A
 * handler opens the recorder, the use case runs on the same thread, and code deep in it ({@link #add}) reports its
 * step without every signature in between carrying a timing object; with no recorder open, {@link #add} does nothing.
 * A JFR profile cannot give this split: its native sampler takes one thread per period, so a request thread's native
 * calls (the ONNX embedding, SQLite's fsync) are mostly missed.
 */
public final class Steps implements AutoCloseable {

    private static final ThreadLocal<Steps> CURRENT = new ThreadLocal<>();

    private final Map<String, Long> nanos = new LinkedHashMap<>();
    private final Steps outer;

    private Steps(Steps outer) {
        this.outer = outer;
    }

    /** Starts recording this thread's steps (a nested recorder hides the outer one until it closes). */
    public static Steps open() {
        Steps s = new Steps(CURRENT.get());
        CURRENT.set(s);
        return s;
    }

    /** Adds {@code elapsedNanos} to {@code step} of the recorder open on this thread, if any. */
    public static void add(String step, long elapsedNanos) {
        Steps s = CURRENT.get();
        if (s != null) {
            s.nanos.merge(step, elapsedNanos, Long::sum);
        }
    }

    /** The recorded steps in milliseconds, in the order first seen, e.g. {@code store;dur=1.20, embed;dur=2.71}. */
    public String serverTiming() {
        StringBuilder b = new StringBuilder();
        nanos.forEach((step, n) -> {
            if (!b.isEmpty()) {
                b.append(", ");
            }
            b.append(step).append(";dur=").append(String.format(Locale.ROOT, "%.2f", n / 1e6));
        });
        return b.toString();
    }

    public Map<String, Long> nanos() {
        return Map.copyOf(nanos);
    }

    @Override
    public void close() {
        if (outer == null) {
            CURRENT.remove();
        } else {
            CURRENT.set(outer);
        }
    }
}
