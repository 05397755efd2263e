package dev.cairn.local;

import dev.cairn.decay.DecaySchedule;
import dev.cairn.model.decay.ScheduledDecay;
import io.quarkus.scheduler.Scheduled;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * The local server's stand-in for the EventBridge rule: every {@code cairn.decay.schedule-every} (default 1 h; {@code
 * off} disables it) the same {@link DecaySchedule} the AWS function runs continues or starts a pass over all teams. A
 * local server has no invocation deadline, so each run may take up to an hour; skipped while one is still running.
 */
@ApplicationScoped
public class LocalDecaySchedule {

    private static final System.Logger LOG = System.getLogger(LocalDecaySchedule.class.getName());

    private final DecaySchedule schedule;

    public LocalDecaySchedule(DecaySchedule schedule) {
        this.schedule = schedule;
    }

    @Scheduled(
            identity = "cairn-decay",
            every = "${cairn.decay.schedule-every:1h}",
            delayed = "${cairn.decay.schedule-delay:1m}",
            concurrentExecution = Scheduled.ConcurrentExecution.SKIP)
    void run() {
        ScheduledDecay.Outcome o = schedule.run(Duration.ofHours(1));
        if (!o.idle()) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "decay: " + o.teams() + " teams, " + o.scanned() + " scanned, "
                            + o.archived() + " archived, " + o.deleted() + " deleted"
                            + (o.passEnded() ? ", pass complete" : ", continues at " + o.cursor()));
        }
    }
}
