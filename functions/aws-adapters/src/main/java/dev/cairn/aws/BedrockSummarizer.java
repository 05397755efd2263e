package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.Summarizer;
import java.util.List;
import java.util.Locale;

/**
 * {@link Summarizer} on Claude through Bedrock (structured output {@code {"summary": "..."}}). Folding must never
 * fail or stall an append, so when Bedrock is unreachable, answers badly, or writes more than the budget, the fold
 * falls back to the embedded extractive summarizer for that step; the next fold uses the model again.
 */
public final class BedrockSummarizer implements Summarizer {

    private static final System.Logger LOG = System.getLogger(BedrockSummarizer.class.getName());

    static final String INSTRUCTIONS = """
            You maintain the rolling summary of a conversation between a user and an AI agent. The agent's context \
            window only holds the most recent messages; everything older survives only in your summary, so \
            anything you drop is forgotten for the rest of the session.

            You receive the previous summary (possibly empty), the messages to fold into it (oldest first, each \
            with its role), and a character budget. Write the new summary:
            - Keep every named entity (people, projects, services, products, files, hosts, regions), every number, \
            version, date, amount and identifier, exactly as written.
            - Keep decisions, preferences, conventions and constraints, and who stated them.
            - Keep open questions and unfinished tasks; drop what was resolved unless the outcome matters.
            - Drop greetings, thanks, filler and repetition.
            - Write in the language of the conversation; for mixed conversations keep each fact in its language.
            - Merge with the previous summary: update facts that changed, never keep both the old and the new value \
            of the same thing without saying which is current.
            - Never include credentials, tokens, passwords or private keys even if they appear; write \
            [REDACTED] instead.
            - Plain sentences, no headings, no markdown; stay within the character budget.

            Answer only with the JSON object {"summary": "..."}.""";

    static final String SCHEMA = """
            {"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"],\
            "additionalProperties":false}""";

    private final BedrockClaude claude;
    private final Summarizer fallback = new ExtractiveSummarizer();

    public BedrockSummarizer(BedrockClaude claude) {
        this.claude = claude;
    }

    @Override
    public String fold(String previous, List<SessionMessage> folded, int maxChars) {
        StringBuilder input = new StringBuilder();
        input.append("Character budget: ")
                .append(maxChars)
                .append("\n\nPrevious summary:\n")
                .append(previous == null || previous.isBlank() ? "(none)" : previous)
                .append("\n\nMessages to fold:\n");
        for (SessionMessage m : folded) {
            input.append('[')
                    .append(m.role().name().toLowerCase(Locale.ROOT))
                    .append("] ")
                    .append(m.content())
                    .append('\n');
        }
        try {
            JsonNode answer = claude.structured(INSTRUCTIONS, "rolling_summary", SCHEMA, input.toString());
            String summary = answer.path("summary").asText("").strip();
            if (summary.isEmpty() || summary.length() > maxChars) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "the model's summary was " + summary.length() + " characters for a budget of " + maxChars
                                + "; folded extractively this time");
                return fallback.fold(previous, folded, maxChars);
            }
            return summary;
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "summarizing with " + claude.modelId() + " failed; folded extractively this time: " + e);
            return fallback.fold(previous, folded, maxChars);
        }
    }
}
