package dev.cairn.recall;

import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.secret.SecretGate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** Builds the domain use cases from whatever adapters the deployment provides for the ports. */
@ApplicationScoped
public class RecallWiring {

    @Produces
    @ApplicationScoped
    Clock clock() {
        return Clock.systemUTC();
    }

    @Produces
    @ApplicationScoped
    MemoryService memoryService(MemoryStore store, Indexer indexer, Clock clock, RecallConfig config,
                                SecretGate secrets) {
        return new MemoryService(store, indexer, clock, config.limits(), secrets);
    }

    /**
     * One thread with a bounded queue: access statistics are best effort, and under a recall storm dropping some is
     * better than queueing without bound.
     */
    @Produces
    @ApplicationScoped
    @Named("access-recorder")
    ExecutorService accessRecorder() {
        return new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(10_000), r -> {
            Thread t = new Thread(r, "cairn-access");
            t.setDaemon(true);
            return t;
        }, new ThreadPoolExecutor.DiscardPolicy());
    }

    void stopAccessRecorder(@Disposes @Named("access-recorder") ExecutorService executor) {
        executor.shutdown();
    }

    @Produces
    @ApplicationScoped
    RecallService recallService(MemoryStore store, VectorIndex index, Embedder embedder, Indexer indexer, Clock clock,
                                RecallConfig config, @Named("access-recorder") ExecutorService accessRecorder,
                                SecretGate secrets) {
        return new RecallService(store, index, embedder, indexer, clock, config.settings(), accessRecorder, secrets);
    }
}
