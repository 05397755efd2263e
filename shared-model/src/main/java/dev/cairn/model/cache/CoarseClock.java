package dev.cairn.model.cache;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A monotonic clock read as one volatile field: {@link System#nanoTime()} costs about 25 ns on virtualised hosts,
 * four times a whole Caffeine hit, so the tool cache's hit path reads this instead. A daemon thread refreshes it every
 * millisecond; callers that start a unit of work (an HTTP request) call {@link #refresh()} first, so even a Lambda
 * thawed after minutes of freeze — when the ticking thread has not run yet — never judges a TTL by a stale time.
 */
public final class CoarseClock {

    private static final long TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static volatile long nanos = System.nanoTime();

    static {
        ScheduledExecutorService ticker = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-coarse-clock");
            t.setDaemon(true);
            return t;
        });
        ticker.scheduleAtFixedRate(CoarseClock::refresh, TICK_NANOS, TICK_NANOS, TimeUnit.NANOSECONDS);
    }

    private CoarseClock() {}

    /** The monotonic time, at most about one millisecond (or one request) old. */
    public static long nanos() {
        return nanos;
    }

    /** Reads the real clock now: at the start of every request. */
    public static void refresh() {
        nanos = System.nanoTime();
    }
}
