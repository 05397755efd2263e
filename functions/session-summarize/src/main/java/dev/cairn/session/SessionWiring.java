package dev.cairn.session;

import dev.cairn.model.index.Indexer;
import dev.cairn.model.memory.MemoryLimits;
import dev.cairn.model.memory.MemoryService;
import dev.cairn.model.port.MemoryStore;
import dev.cairn.model.port.SessionStore;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.RuleBasedExtractor;
import dev.cairn.model.session.SessionService;
import dev.cairn.model.session.Summarizer;
import io.quarkus.arc.DefaultBean;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import java.time.Clock;

/** Builds the session use case from the selected session store, the summarizer and the secret gate. */
@ApplicationScoped
public class SessionWiring {

    /** The embedded extractive summarizer; a deployment with an LLM summarizer provides its own bean. */
    @Produces
    @DefaultBean
    @ApplicationScoped
    Summarizer summarizer() {
        return new ExtractiveSummarizer();
    }

    /** The embedded rule-based extractor; a deployment with an LLM extractor provides its own bean. */
    @Produces
    @DefaultBean
    @ApplicationScoped
    FactExtractor extractor(SecretScanner scanner) {
        return new RuleBasedExtractor(scanner);
    }

    @Produces
    @ApplicationScoped
    SessionService sessions(SessionStore store, Summarizer summarizer, FactExtractor extractor, MemoryStore memoryStore,
                            Indexer indexer, SecretGate secrets, SessionConfig config) {
        int k = config.foldCount() > 0 ? config.foldCount() : Math.max(1, config.foldAt() / 2);
        Clock clock = Clock.systemUTC();
        // extracted facts take the ordinary memory write path; this instance is private to sessions (the recall
        // function owns the MemoryService bean), with the default memory limits
        MemoryService memories = new MemoryService(memoryStore, indexer, clock, MemoryLimits.DEFAULTS, secrets);
        return new SessionService(store, summarizer, extractor, memories, secrets, clock,
                new SessionService.Limits(config.foldAt(), k, config.maxMessageBytes(), config.summaryChars()));
    }
}
