package dev.cairn.decay;

import com.amazonaws.services.lambda.runtime.Context;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler;
import io.quarkus.arc.Arc;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;

/**
 * The decay function's Lambda handler ({@code dev.cairn.decay.DecayLambda::handleRequest}): the schedule's event
 * ({@code {"cairn":"decay-schedule"}}, the input the stack gives the EventBridge target) runs {@link DecaySchedule};
 * anything else is an API Gateway event for the HTTP routes and goes to Quarkus as usual. Quarkus has one handler per
 * function, so the two entry points share it here rather than deploying the same code twice.
 */
public class DecayLambda extends QuarkusStreamHandler {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        byte[] event = input.readAllBytes();
        if (DecaySchedule.isScheduleEvent(event)) {
            DecaySchedule schedule =
                    Arc.container().instance(DecaySchedule.class).get();
            JSON.writeValue(output, schedule.run(Duration.ofMillis(context.getRemainingTimeInMillis())));
            return;
        }
        super.handleRequest(new ByteArrayInputStream(event), output, context);
    }
}
