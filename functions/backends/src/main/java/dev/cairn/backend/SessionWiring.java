package dev.cairn.backend;

import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.consolidate.FactComparison;
import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryLimits;
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
 * Builds the session use case (shared by session-summarize, which appends and reads, and fact-extract, which ends
 * sessions) from the selected stores, summarizer, extractor and the secret gate.
 */
@ApplicationScoped
public class SessionWiring {

    @Produces
    @ApplicationScoped
    Consolidator consolidator(MemoryStore memoryStore, VectorIndex index, Embedder embedder, Indexer indexer,
                              SecretGate secrets, ConsolidationConfig config) {
        return new Consolidator(sessionMemories(memoryStore, indexer, secrets), memoryStore, index, embedder,
                new FactComparison(new FactComparison.Thresholds(config.minSimilarity(), config.minOverlap(),
                        config.maxChanged())), config.candidates());
    }

    @Produces
    @ApplicationScoped
    SessionService sessions(SessionStore store, Summarizer summarizer, FactExtractor extractor, MemoryStore memoryStore, Indexer indexer,
                            Consolidator consolidator, SecretGate secrets, SessionConfig config) {
        int k = config.foldCount() > 0 ? config.foldCount() : Math.max(1, config.foldAt() / 2);
        return new SessionService(store, summarizer, extractor,
                sessionMemories(memoryStore, indexer, secrets), consolidator, secrets, Clock.systemUTC(),
                new SessionService.Limits(config.foldAt(), k, config.maxMessageBytes(), config.summaryChars()));
    }

    /**
     * Extracted facts take the ordinary memory write path; this instance is private to sessions (the recall function
     * owns the MemoryService bean), with the default memory limits.
     */
    private static MemoryService sessionMemories(MemoryStore store, Indexer indexer, SecretGate secrets) {
        return new MemoryService(store, indexer, Clock.systemUTC(), MemoryLimits.DEFAULTS, secrets);
    }
}
