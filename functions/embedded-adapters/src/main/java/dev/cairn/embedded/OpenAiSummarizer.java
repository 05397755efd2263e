package dev.cairn.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.session.ExtractiveSummarizer;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.session.Summarizer;
import java.util.List;
import java.util.Locale;

/**
 * {@link Summarizer} on an OpenAI-compatible chat model ({@code {"summary": "..."}}). Folding runs inside an append,
 * and an append must never fail, so when the model is unreachable, answers badly or overruns the budget, this fold is
 * done by the in-process extractive summarizer and the next fold tries the model again.
 */
public final class OpenAiSummarizer implements Summarizer {

    private static final System.Logger LOG = System.getLogger(OpenAiSummarizer.class.getName());

    static final String INSTRUCTIONS = """
            You maintain the rolling summary of a conversation between a user and an AI agent. The agent's context \
            window only holds the most recent messages; everything older survives only in your summary.

            You receive the previous summary (possibly empty), the messages to fold into it (oldest first, each \
            with its role), and a character budget. Write the new summary:
            - Keep every named entity (people, projects, services, products, files, hosts, regions), every number, \
            version, date, amount and identifier, exactly as written.
            - Keep decisions, preferences, conventions and constraints, and who stated them.
            - Keep open questions and unfinished tasks; drop greetings, thanks, filler and repetition.
            - Write in the language of the conversation.
            - Merge with the previous summary; when a fact changed keep only the current value.
            - Never include credentials, tokens, passwords or private keys; write [REDACTED] instead.
            - Plain sentences, no markdown; stay within the character budget.

            Answer only with the JSON object {"summary": "..."}.""";

    static final String SCHEMA = """
            {"type":"object","properties":{"summary":{"type":"string"}},"required":["summary"],\
            "additionalProperties":false}""";

    private final OpenAiChat chat;
    private final Summarizer fallback = new ExtractiveSummarizer();

    public OpenAiSummarizer(OpenAiChat chat) {
        this.chat = chat;
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
            JsonNode answer = chat.structured(INSTRUCTIONS, "rolling_summary", SCHEMA, input.toString());
            String summary = answer.path("summary").asText("").strip();
            if (summary.isEmpty() || summary.length() > maxChars) {
                LOG.log(
                        System.Logger.Level.WARNING,
                        "the model's summary was " + summary.length() + " characters for a budget of " + maxChars
                                + "; folded extractively this time");
                return fallback.fold(previous, folded, maxChars);
            }
            return summary;
        } catch (StoreUnavailable e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "summarizing with " + chat.model() + " failed; folded extractively this time: " + e.getMessage());
            return fallback.fold(previous, folded, maxChars);
        }
    }
}
