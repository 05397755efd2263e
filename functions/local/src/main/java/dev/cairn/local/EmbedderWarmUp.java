package dev.cairn.local;

import dev.cairn.embedded.OnnxEmbedder;
import dev.cairn.model.port.Embedder;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.util.List;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * Loads the embedding model and runs it once, on a background thread, as soon as the local server (or its {@code mcp}
 * command) has started. Without it the first recall or write of a process paid for loading the model and ONNX
 * Runtime's first inferences: 1.7 s of a first recall's 1.77 s on quiet cores (its {@code Server-Timing} embed step,
 * against about 5 ms after), and about 10 s under load, which an MCP client's first tool call waited out. Start-up
 * itself does not wait: a request that arrives first simply loads the model as before.
 */
@ApplicationScoped
public class EmbedderWarmUp {

    private static final Logger LOG = Logger.getLogger(EmbedderWarmUp.class);

    private final Instance<Embedder> embedder;

    public EmbedderWarmUp(Instance<Embedder> embedder) {
        this.embedder = embedder;
    }

    void start(@Observes StartupEvent event) {
        Thread warm = new Thread(() -> warm(embedder::get, e -> e instanceof OnnxEmbedder), "cairn-embed-warm-up");
        warm.setDaemon(true);
        warm.start();
    }

    /** Runs the model once as a recall and a write would; whether it worked (a failure is logged, never thrown). */
    static boolean warm(Supplier<Embedder> source, Predicate<Embedder> inProcess) {
        long start = System.nanoTime();
        try {
            Embedder e = source.get();
            if (!inProcess.test(e)) {
                return false; // a remote model (Bedrock) loads nothing here, and a call would cost money
            }
            // a query and a short batch, as a recall and a write run them: the first inferences of each shape are slow
            e.embedQuery("which database does the team use?");
            e.embedDocuments(List.of("We use PostgreSQL 16 for every new service", "Alice prefers dark mode"));
            LOG.debugf("embedding model %s warm in %d ms", e.modelId(), (System.nanoTime() - start) / 1_000_000);
            return true;
        } catch (RuntimeException | LinkageError failure) {
            // LinkageError: ONNX Runtime's native library that cannot load
            // the first request will load it and report what is wrong there, where a caller sees it
            LOG.warnf("embedding model warm-up failed: %s", failure.toString());
            return false;
        }
    }
}
