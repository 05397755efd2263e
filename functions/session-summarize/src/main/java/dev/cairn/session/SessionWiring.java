package dev.cairn.session;

import dev.cairn.model.port.SessionStore;
import dev.cairn.model.secret.SecretGate;
import dev.cairn.model.session.ExtractiveSummarizer;
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

    @Produces
    @ApplicationScoped
    SessionService sessions(SessionStore store, Summarizer summarizer, SecretGate secrets, SessionConfig config) {
        int k = config.foldCount() > 0 ? config.foldCount() : Math.max(1, config.foldAt() / 2);
        return new SessionService(store, summarizer, secrets, Clock.systemUTC(),
                new SessionService.Limits(config.foldAt(), k, config.maxMessageBytes(), config.summaryChars()));
    }
}
