package dev.cairn.local;

import dev.cairn.app.IndexerConfig;
import dev.cairn.model.error.EmbeddingModelMismatch;
import dev.cairn.model.index.Indexer;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.jboss.logging.Logger;

/**
 * The local server's counterpart of the DynamoDB Streams indexer (a Lambda cannot poll, and a package without a
 * record store, like secret-scan's, has nothing to converge): at start-up it converges the index with the record store
 * (work left over from a crash), then polls the store's sparse "needs index" index on an interval.
 */
@ApplicationScoped
public class IndexCatchUpRunner {

    private static final Logger LOG = Logger.getLogger(IndexCatchUpRunner.class);

    private final Indexer indexer;
    private final IndexerConfig config;
    private ScheduledExecutorService scheduler;

    public IndexCatchUpRunner(Indexer indexer, IndexerConfig config) {
        this.indexer = indexer;
        this.config = config;
    }

    void start(@Observes StartupEvent event) {
        if (!config.poll()) {
            return;
        }
        int done;
        try {
            done = indexer.converge(config.batchSize());
        } catch (EmbeddingModelMismatch e) {
            // Stay up: memories can still be read and listed, readiness reports DOWN, and recall and writes answer
            // 409 with this same explanation. Indexing with the wrong model would corrupt the index, so none runs.
            LOG.errorf("background indexing disabled: %s", e.getMessage());
            return;
        }
        if (done > 0) {
            LOG.infof("indexed %d memories left pending by an earlier run", done);
        }
        scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "cairn-indexer");
            t.setDaemon(true);
            return t;
        });
        long ms = config.interval().toMillis();
        scheduler.scheduleWithFixedDelay(this::tick, ms, ms, TimeUnit.MILLISECONDS);
    }

    private void tick() {
        try {
            indexer.converge(config.batchSize());
        } catch (RuntimeException e) {
            // keep the schedule alive: the next tick retries whatever is still pending
            LOG.warnf("background indexing failed, will retry: %s", e.toString());
        }
    }

    void stop(@Observes ShutdownEvent event) throws InterruptedException {
        if (scheduler != null) {
            // let a running pass finish its store and index calls rather than cut them off mid-request
            scheduler.shutdown();
            if (!scheduler.awaitTermination(5, TimeUnit.SECONDS)) {
                scheduler.shutdownNow();
            }
        }
    }
}
