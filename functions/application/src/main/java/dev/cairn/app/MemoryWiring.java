package dev.cairn.app;

import dev.cairn.model.cache.SnapshotPurge;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.recall.RecallService;
import dev.cairn.model.secret.SecretGate;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Disposes;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import java.time.Clock;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The process's one clock and the memory use cases every function shares: index convergence, the memory write path
 * (also taken by extracted facts and sync) and recall (also used by context assembly), each built once.
 */
@ApplicationScoped
public class MemoryWiring {

    @Produces
    @ApplicationScoped
    Clock clock() {
        return Clock.systemUTC();
    }

    /**
     * Index convergence over whichever store and index were chosen (the poller locally, Streams in AWS), and the
     * delete cascade to the cold tier where this package holds it: the AWS API functions that carry no S3 adapters
     * leave the cold copy to the stream indexer (see {@link Indexer}).
     */
    @Produces
    @ApplicationScoped
    Indexer indexer(
            MemoryStore store,
            VectorIndex index,
            Embedder embedder,
            @Any Instance<ColdStore> colds,
            BackendConfig config,
            RecallConfig recall) {
        return new Indexer(
                store,
                index,
                embedder,
                Ports.selectIfPackaged(colds, config.recordStore()).orElse(null),
                recall.recall().contextVector());
    }

    @Produces
    @ApplicationScoped
    MemoryService memoryService(
            MemoryStore store,
            Indexer indexer,
            Clock clock,
            RecallConfig config,
            SecretGate secrets,
            SessionCacheStore snapshots) {
        // a delete also purges the memory's text from the context snapshots that embed it (API: deletes cascade)
        return new MemoryService(store, indexer, clock, config.limits(), secrets, new SnapshotPurge(snapshots));
    }

    /**
     * One thread with a bounded queue: access statistics are best effort, and under a recall storm dropping some is
     * better than queueing without bound.
     */
    @Produces
    @ApplicationScoped
    @Named("access-recorder")
    ExecutorService accessRecorder() {
        return new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.MILLISECONDS,
                new ArrayBlockingQueue<>(10_000),
                r -> {
                    Thread t = new Thread(r, "cairn-access");
                    t.setDaemon(true);
                    return t;
                },
                new ThreadPoolExecutor.DiscardPolicy());
    }

    void stopAccessRecorder(@Disposes @Named("access-recorder") ExecutorService executor) {
        executor.shutdown();
    }

    @Produces
    @ApplicationScoped
    RecallService recallService(
            MemoryStore store,
            VectorIndex index,
            Embedder embedder,
            Indexer indexer,
            Clock clock,
            RecallConfig config,
            @Named("access-recorder") ExecutorService accessRecorder,
            SecretGate secrets) {
        // The query is embedded on the request thread, before the search: an A/B on a settled 20k index showed
        // that embedding it on a second thread while the index runs BM25 saves nothing on 2 cores (ONNX already
        // uses both, so the embedding slows by as much as the search gains). RecallService keeps the port for
        // machines with cores to spare.
        return new RecallService(store, index, embedder, indexer, clock, config.settings(), accessRecorder, secrets);
    }
}
