package dev.cairn.model.session;

import dev.cairn.model.memory.MemoryType;
import java.util.List;

/**
 * Turns what was said in a session into typed facts. Adapters: a rule-based extractor for English and Chinese cues
 * (the embedded default, {@link RuleBasedExtractor}) and an LLM through Bedrock (configured deployments).
 */
public interface FactExtractor {

    /**
     * A fact worth keeping, with where it came from; {@code explicit} when the user asked for it to be remembered
     * ("remember that …", "记住…"), which is written at once rather than at session end.
     */
    record Fact(MemoryType type, String content, double confidence, List<SessionMessage> evidence, boolean explicit) {}

    /** A statement that looked like a fact but was left out, and why (chatter, temporary, question, secret). */
    record Skipped(String text, String reason) {}

    record Extraction(List<Fact> facts, List<Skipped> skipped) {}

    Extraction extract(List<SessionMessage> messages);
}
