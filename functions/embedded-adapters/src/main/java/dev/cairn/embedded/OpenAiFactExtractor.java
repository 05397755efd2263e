package dev.cairn.embedded;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.ModelProposals;
import dev.cairn.model.session.SessionMessage;
import java.util.ArrayList;
import java.util.List;

/**
 * {@link FactExtractor} on any OpenAI-compatible chat model with structured JSON output. The model proposes;
 * {@link ModelProposals#validate} decides, exactly as for Bedrock: types, evidence, confidence and secrets are checked
 * by Cairn, not trusted. When the model cannot be reached or keeps answering badly, {@link OpenAiChat} throws
 * {@code StoreUnavailable}: the session end answers 503 and writes nothing.
 */
public final class OpenAiFactExtractor implements FactExtractor {

    private final OpenAiChat chat;
    private final SecretScanner scanner;

    public OpenAiFactExtractor(OpenAiChat chat, SecretScanner scanner) {
        this.chat = chat;
        this.scanner = scanner;
    }

    @Override
    public Extraction extract(List<SessionMessage> messages) {
        if (messages.stream().noneMatch(m -> m.role() == SessionMessage.Role.USER)) {
            return new Extraction(List.of(), List.of()); // nothing the user said: no call
        }
        JsonNode answer = chat.structured(
                ModelProposals.INSTRUCTIONS,
                "extracted_facts",
                ModelProposals.SCHEMA,
                ModelProposals.conversation(messages));
        List<ModelProposals.ProposedFact> facts = new ArrayList<>();
        for (JsonNode f : answer.path("facts")) {
            List<Integer> evidence = new ArrayList<>();
            for (JsonNode n : f.path("evidence")) {
                evidence.add(n.canConvertToInt() ? n.asInt() : -1);
            }
            facts.add(new ModelProposals.ProposedFact(
                    f.path("type").asText(""),
                    f.path("content").asText(""),
                    f.path("confidence").isNumber() ? f.path("confidence").asDouble() : Double.NaN,
                    evidence,
                    f.path("explicit").asBoolean(false)));
        }
        List<ModelProposals.ProposedSkip> skips = new ArrayList<>();
        for (JsonNode s : answer.path("skipped")) {
            skips.add(new ModelProposals.ProposedSkip(
                    s.path("text").asText(""), s.path("reason").asText("other")));
        }
        return ModelProposals.validate(messages, facts, skips, scanner);
    }
}
