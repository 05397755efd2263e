package dev.cairn.model.session;

import java.util.List;

/**
 * Folds messages into a session's rolling summary. Adapters: an extractive summarizer in-process (the embedded
 * default, {@link ExtractiveSummarizer}) and an LLM through Bedrock (configured deployments).
 */
public interface Summarizer {

    /**
     * The new rolling summary: what {@code previous} said, plus what {@code folded} adds, within {@code maxChars}.
     * Named entities and numbers of the folded messages must survive (they are what later turns ask about).
     */
    String fold(String previous, List<SessionMessage> folded, int maxChars);
}
