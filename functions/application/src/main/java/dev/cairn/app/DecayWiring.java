package dev.cairn.app;

import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.DecayPolicy;
import dev.cairn.model.decay.Restore;
import dev.cairn.model.decay.ScheduledDecay;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.MemoryStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** The decay job's objects, built once from {@code cairn.decay.*} for the HTTP routes and the schedule alike. */
@ApplicationScoped
public class DecayWiring {

    @Produces
    @ApplicationScoped
    DecayJob job(MemoryStore store, ColdStore cold, Indexer indexer, Clock clock, DecayConfig config) {
        return new DecayJob(
                store,
                cold,
                indexer,
                new DecayPolicy(config.factor(), config.archiveBelow(), config.expireAfter()),
                clock,
                config.pageSize(),
                pool(config.parallelism()));
    }

    /** Threads that carry a page's decisions (store round trips, not CPU): daemon, so they never hold the JVM. */
    private static java.util.concurrent.ExecutorService pool(int threads) {
        java.util.concurrent.atomic.AtomicInteger n = new java.util.concurrent.atomic.AtomicInteger();
        return java.util.concurrent.Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "cairn-decay-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        });
    }

    @Produces
    @ApplicationScoped
    Restore restore(MemoryStore store, ColdStore cold, Indexer indexer, Clock clock) {
        return new Restore(store, cold, indexer, clock);
    }

    @Produces
    @ApplicationScoped
    ScheduledDecay schedule(MemoryStore store, DecayJob job, Clock clock, DecayConfig config) {
        return new ScheduledDecay(store, job, clock, config.passInterval());
    }
}
