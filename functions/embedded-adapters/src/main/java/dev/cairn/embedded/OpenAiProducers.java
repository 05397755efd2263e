package dev.cairn.embedded;

import dev.cairn.app.Adapter;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.Summarizer;
import io.quarkus.arc.Unremovable;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/**
 * The extractor and summarizer on an OpenAI-compatible endpoint ({@code cairn.backend.extractor=openai},
 * {@code cairn.backend.summarizer=openai}), one chat client for both. Nothing is built unless one of them is chosen.
 */
@ApplicationScoped
public class OpenAiProducers {

    @Produces
    @Singleton
    OpenAiChat chat(OpenAiConfig config) {
        return OpenAiChat.of(config);
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.OPENAI)
    FactExtractor extractor(OpenAiChat chat, SecretScanner scanner) {
        return new OpenAiFactExtractor(chat, scanner);
    }

    @Produces
    @ApplicationScoped
    @Unremovable
    @Adapter(Adapter.OPENAI)
    Summarizer summarizer(OpenAiChat chat) {
        return new OpenAiSummarizer(chat);
    }
}
