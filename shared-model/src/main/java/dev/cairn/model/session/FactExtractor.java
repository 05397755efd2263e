package dev.cairn.model.session;

import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.util.List;

/**
 * Turns what was said in a session into typed facts. Adapters: the embedded default ({@link EmbeddedExtractor}: the
 * loaded embedding model's nearest labelled examples plus precise cues), the older cue-only {@link RuleBasedExtractor},
 * and an LLM through Bedrock or any OpenAI-compatible endpoint (configured deployments).
 */
public interface FactExtractor {

    /**
     * A fact worth keeping, with where it came from; {@code explicit} when the user asked for it to be remembered
     * ("remember that …", "记住…"), which is written at once rather than at session end. {@code scope} is whose it
     * is: the user's ("I", "my") or the team's ("we", "our").
     */
    record Fact(
            MemoryType type,
            String content,
            double confidence,
            List<SessionMessage> evidence,
            boolean explicit,
            Scope scope) {

        /** A fact whose statement named no owner: a preference is the user's, anything else the team's. */
        public Fact(
                MemoryType type, String content, double confidence, List<SessionMessage> evidence, boolean explicit) {
            this(
                    type,
                    content,
                    confidence,
                    evidence,
                    explicit,
                    type == MemoryType.PREFERENCE ? Scope.USER : Scope.TEAM);
        }
    }

    /**
     * A statement that was left out, and why (question, request, chatter, temporary, secret, low-confidence, ...);
     * {@code score} is the extractor's confidence in that outcome where it has one (null otherwise). A secret's text is
     * redacted.
     */
    record Skipped(String text, String reason, Double score) {

        public Skipped(String text, String reason) {
            this(text, reason, null);
        }
    }

    record Extraction(List<Fact> facts, List<Skipped> skipped) {}

    Extraction extract(List<SessionMessage> messages);
}
