package dev.cairn.decay;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.app.Counters;
import dev.cairn.model.decay.ScheduledDecay;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import java.time.Duration;

/**
 * What the EventBridge schedule triggers ({@link DecayLambda}): continue the decay pass over every team until it ends
 * or the invocation's time runs low.
 */
// looked up by DecayLambda, never injected in a package: unremovable, or Quarkus drops it as unused
@Unremovable
@ApplicationScoped
public class DecaySchedule {

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
            return n != null
                    && n.isObject()
                    && "decay-schedule".equals(n.path("cairn").asText(null));
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** Runs with {@code timeLeft} of the invocation remaining (the margin it leaves is the schedule's rule). */
    public ScheduledDecay.Outcome run(Duration timeLeft) {
        ScheduledDecay.Outcome o = schedule.run(timeLeft);
        DecayMetrics.count(metrics, o.scanned(), o.decayed(), o.archived(), o.deleted());
        return o;
    }
}
