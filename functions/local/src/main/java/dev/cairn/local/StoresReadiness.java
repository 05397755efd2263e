package dev.cairn.local;

import dev.cairn.model.index.Indexer;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.VectorIndex;
import jakarta.enterprise.context.ApplicationScoped;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the record store answers, the index holds vectors of the model this server embeds with, and the index is
 * usable (after a disk failure it is DOWN, saying why, until the index has reopened).
 */
@Readiness
@ApplicationScoped
public class StoresReadiness implements HealthCheck {

    private final MemoryStore store;
    private final VectorIndex index;
    private final Indexer indexer;

    public StoresReadiness(MemoryStore store, VectorIndex index, Indexer indexer) {
        this.store = store;
        this.index = index;
        this.indexer = indexer;
    }

    @Override
    public HealthCheckResponse call() {
        var builder = HealthCheckResponse.named("stores")
                .withData("embedding_model", indexer.modelId())
                .withData("index_model", index.modelId().orElse("(empty)"));
        store.pendingIndex(1);
        boolean compatible = index.modelId().map(indexer.modelId()::equals).orElse(true);
        var unavailable = index.unavailable();
        unavailable.ifPresent(why -> builder.withData("index", why));
        return builder.status(compatible && unavailable.isEmpty()).build();
    }
}
