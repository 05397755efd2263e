package dev.cairn.app;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** The decay policy ({@code cairn.decay.*}) and how long one run may take before it stops and reports where. */
@ConfigMapping(prefix = "cairn.decay")
public interface DecayConfig {

    /** Factor per effective day. */
    @WithDefault("0.98")
    double factor();

    /** Effective importance under which an active memory is archived. */
    @WithDefault("0.05")
    double archiveBelow();

    /** How long an archived memory stays before it is deleted. */
    @WithDefault("365d")
    Duration expireAfter();

    @WithDefault("200")
    int pageSize();

    /** How many memories of a page are decided and written at once (each is a few store round trips). */
    @WithDefault("8")
    int parallelism();

    /**
     * The scheduled run starts a new pass over all teams at most this often; invocations in between continue the
     * pass under way or return at once.
     */
    @WithDefault("1d")
    Duration passInterval();

    /**
     * How often the local server runs the scheduled pass ({@code off} disables it; read by its {@code @Scheduled}). In
     * AWS the stack's EventBridge rule triggers the pass instead.
     */
    @WithDefault("1h")
    String scheduleEvery();

    /** How long after start the local server's first scheduled pass waits. */
    @WithDefault("1m")
    String scheduleDelay();

    /** Stop between pages after this long (a Lambda's timeout minus a margin); the answer says where to resume. */
    @WithDefault("60s")
    Duration maxRun();
}
