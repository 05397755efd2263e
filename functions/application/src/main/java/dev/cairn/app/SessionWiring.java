package dev.cairn.app;

import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.consolidate.FactComparison;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.Embedder;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.port.VectorIndex;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionService;
import dev.cairn.model.session.Summarizer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/**
 * The session use case (session-summarize appends and reads, fact-extract ends sessions) and consolidation. Extracted
 * facts take the one {@link MemoryService}, so {@code cairn.memory.*} limits apply to them as to any other write.
 */
@ApplicationScoped
public class SessionWiring {

    @Produces
    @ApplicationScoped
    Consolidator consolidator(
            MemoryService memories,
            MemoryStore memoryStore,
            VectorIndex index,
            Embedder embedder,
            ConsolidationConfig config) {
        return new Consolidator(
                memories, memoryStore, index, embedder, new FactComparison(config.thresholds()), config.candidates());
    }

    @Produces
    @ApplicationScoped
    SessionService sessions(
            SessionStore store,
            Summarizer summarizer,
            FactExtractor extractor,
            MemoryService memories,
            Consolidator consolidator,
            SecretGate secrets,
            Clock clock,
            SessionConfig config) {
        return new SessionService(
                store, summarizer, extractor, memories, consolidator, secrets, clock, config.limits());
    }
}
