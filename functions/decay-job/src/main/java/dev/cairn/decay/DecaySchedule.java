package dev.cairn.decay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.model.decay.ScheduledDecay;
import dev.cairn.app.Counters;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * What the EventBridge schedule triggers ({@link DecayLambda}): continue the decay pass over every team until it ends
 * or the invocation's time runs low, leaving a margin for the page in flight and the answer.
 */
// looked up by DecayLambda, never injected in a package: unremovable, or Quarkus drops it as unused
@Unremovable
@ApplicationScoped
public class DecaySchedule {

    /** A page of 200 archivals takes a few seconds against the AWS stores; a minute is ample. */
    static final Duration MARGIN = Duration.ofSeconds(60);

    private final ScheduledDecay schedule;
    private final Counters metrics;

    public DecaySchedule(ScheduledDecay schedule, Counters metrics) {
        this.schedule = schedule;
        this.metrics = metrics;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * Whether an invocation's payload is the schedule's ({@code {"cairn":"decay-schedule"}}); an API Gateway event
     * never has a top-level {@code cairn} field. Lives here, not in {@link DecayLambda}, because loading that class
     * starts Quarkus.
     */
    static boolean isScheduleEvent(byte[] event) {
        try {
            JsonNode n = JSON.readTree(event);
            return n != null && n.isObject() && "decay-schedule".equals(n.path("cairn").asText(null));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Runs with {@code timeLeft} of the invocation remaining; stops once less than the margin (or 10 %) is left. */
    public ScheduledDecay.Outcome run(Duration timeLeft) {
        Duration margin = timeLeft.compareTo(MARGIN.multipliedBy(2)) > 0 ? MARGIN : timeLeft.dividedBy(10);
        long deadline = System.nanoTime() + timeLeft.minus(margin).toNanos();
        ScheduledDecay.Outcome o = schedule.run(() -> System.nanoTime() > deadline);
        DecayMetrics.count(metrics, o.scanned(), o.decayed(), o.archived(), o.deleted());
        return o;
    }
}
