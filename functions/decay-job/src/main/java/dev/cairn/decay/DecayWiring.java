package dev.cairn.decay;

import dev.cairn.model.decay.DecayJob;
import dev.cairn.model.decay.DecayPolicy;
import dev.cairn.model.decay.Restore;
import dev.cairn.model.decay.ScheduledDecay;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.MemoryStore;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** The decay job's objects, built once from {@code cairn.decay.*} for the HTTP routes and the schedule alike. */
@ApplicationScoped
public class DecayWiring {

    @Produces
    @ApplicationScoped
    DecayJob job(MemoryStore store, ColdStore cold, Indexer indexer, DecayConfig config) {
        return new DecayJob(store, cold, indexer, new DecayPolicy(config.factor(), config.archiveBelow(),
                config.expireAfter()), Clock.systemUTC(), config.pageSize(), pool(config.parallelism()));
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
    Restore restore(MemoryStore store, ColdStore cold, Indexer indexer) {
        return new Restore(store, cold, indexer);
    }

    @Produces
    @ApplicationScoped
    ScheduledDecay schedule(MemoryStore store, DecayJob job, DecayConfig config) {
        return new ScheduledDecay(store, job, Clock.systemUTC(), config.passInterval());
    }

    /** The job's counts as metrics ({@code cairn.decay.scanned|decayed|archived|deleted}). */
    static void count(MeterRegistry metrics, long scanned, long decayed, long archived, long deleted) {
        metrics.counter("cairn.decay.scanned").increment(scanned);
        metrics.counter("cairn.decay.decayed").increment(decayed);
        metrics.counter("cairn.decay.archived").increment(archived);
        metrics.counter("cairn.decay.deleted").increment(deleted);
    }
}
