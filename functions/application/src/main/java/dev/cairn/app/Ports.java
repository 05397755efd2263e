package dev.cairn.app;

import dev.cairn.model.port.ColdStore;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionCacheStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.SyncStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.EmbeddedExtractor;
import dev.cairn.model.session.ExampleBank;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.RuleBasedExtractor;
import dev.cairn.model.session.Summarizer;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Any;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.lang.annotation.Annotation;
import java.util.TreeSet;

/**
 * Hands every use case the adapter {@link BackendConfig} selects for each port. Adapter modules produce their ports
 * under {@link Adapter} qualifiers; this is the only place a bare port type ({@code MemoryStore}, ...) is produced.
 *
 * <p>The selected adapter beans are application scoped, so what is returned here is their client proxy: an adapter is
 * built on its first call, and one that is not selected is never built (an AWS package never opens a SQLite file, the
 * embedded default never needs AWS credentials).
 */
@ApplicationScoped
public class Ports {

    @Produces
    @Singleton
    MemoryStore memoryStore(@Any Instance<MemoryStore> all, BackendConfig config) {
        return select(all, MemoryStore.class, config.recordStore(), "cairn.backend.record-store");
    }

    @Produces
    @Singleton
    SessionStore sessionStore(@Any Instance<SessionStore> all, BackendConfig config) {
        return select(all, SessionStore.class, config.recordStore(), "cairn.backend.record-store");
    }

    @Produces
    @Singleton
    SessionCacheStore sessionCacheStore(@Any Instance<SessionCacheStore> all, BackendConfig config) {
        return select(all, SessionCacheStore.class, config.recordStore(), "cairn.backend.record-store");
    }

    @Produces
    @Singleton
    SyncStore syncStore(@Any Instance<SyncStore> all, BackendConfig config) {
        return select(all, SyncStore.class, config.recordStore(), "cairn.backend.record-store");
    }

    @Produces
    @Singleton
    ColdStore coldStore(@Any Instance<ColdStore> all, BackendConfig config) {
        return select(all, ColdStore.class, config.recordStore(), "cairn.backend.record-store");
    }

    @Produces
    @Singleton
    VectorIndex vectorIndex(@Any Instance<VectorIndex> all, BackendConfig config) {
        return select(all, VectorIndex.class, config.vectorIndex(), "cairn.backend.vector-index");
    }

    @Produces
    @Singleton
    Embedder embedder(@Any Instance<Embedder> all, BackendConfig config) {
        return select(all, Embedder.class, config.embedder(), "cairn.backend.embedder");
    }

    @Produces
    @Singleton
    Summarizer summarizer(@Any Instance<Summarizer> all, BackendConfig config) {
        return select(all, Summarizer.class, config.summarizer(), "cairn.backend.summarizer");
    }

    @Produces
    @Singleton
    FactExtractor extractor(@Any Instance<FactExtractor> all, BackendConfig config) {
        return select(all, FactExtractor.class, config.extractor(), "cairn.backend.extractor");
    }

    /** The in-process summarizer is pure domain code: always available, whatever adapter modules are packaged. */
    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.EXTRACTIVE)
    Summarizer extractiveSummarizer() {
        return new ExtractiveSummarizer();
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.RULES)
    FactExtractor ruleBasedExtractor(SecretScanner scanner) {
        return new RuleBasedExtractor(scanner);
    }

    /**
     * The adapter named by {@code kind} when this package carries one, else empty: for what a function may do without
     * (the delete cascade's cold tier in an AWS function that does not package S3).
     */
    static <T> java.util.Optional<T> selectIfPackaged(Instance<T> all, Enum<?> kind) {
        Instance<T> chosen = all.select(Adapter.Literal.of(kind));
        return chosen.isResolvable() ? java.util.Optional.of(chosen.get()) : java.util.Optional.empty();
    }

    /**
     * The embedded default extractor runs on whichever embedder is selected. Its example bank is embedded in the
     * background as soon as it is built (the first session call), so the first session end does not wait for it.
     */
    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.EMBEDDED)
    FactExtractor embeddedExtractor(Embedder embedder, SecretScanner scanner, SessionConfig config) {
        EmbeddedExtractor extractor = new EmbeddedExtractor(
                embedder,
                scanner,
                ExampleBank.shipped(),
                EmbeddedExtractor.Settings.defaults().withChineseThreshold(config.extractionChineseBar()));
        Thread warm = new Thread(extractor::warmUp, "extraction-bank");
        warm.setDaemon(true);
        warm.start();
        return extractor;
    }

    /**
     * The adapter of {@code type} named by {@code kind}, or a start-up error that names the property, its value and
     * the adapters this package does contain (a lean AWS package configured for {@code sqlite}, say).
     */
    static <T> T select(Instance<T> all, Class<T> type, Enum<?> kind, String property) {
        Instance<T> chosen = all.select(Adapter.Literal.of(kind));
        if (chosen.isResolvable()) {
            return chosen.get();
        }
        TreeSet<String> available = new TreeSet<>();
        for (Instance.Handle<T> handle : all.handles()) {
            for (Annotation q : handle.getBean().getQualifiers()) {
                if (q instanceof Adapter a) {
                    available.add(a.value());
                }
            }
        }
        throw new IllegalStateException(property + "=" + BackendConfig.name(kind) + ", but this package has no "
                + BackendConfig.name(kind) + " adapter for " + type.getSimpleName() + " (available: "
                + (available.isEmpty() ? "none" : String.join(", ", available)) + ")");
    }
}
