package dev.cairn.local;

import dev.cairn.app.Counters;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;

/** The local server's counters: Micrometer, exported at {@code GET /q/metrics} in Prometheus' text format. */
@ApplicationScoped
public class MicrometerCounters implements Counters {

    private final MeterRegistry registry;

    public MicrometerCounters(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public void add(String name, double amount, String... tags) {
        registry.counter(name, tags).increment(amount);
    }
}
