package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.secret.Finding;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionMessage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * {@link FactExtractor} on Claude through Bedrock with structured output. The model proposes; Cairn checks: a type
 * outside the five, evidence that names no message of the session, a confidence outside [0, 1] or a fact with a
 * secret in it (the model may echo one) is not written but reported as skipped, so an answer can never smuggle in
 * what the rule-based path would refuse. Messages are numbered in the prompt and evidence is given by number, which
 * is shorter than ULIDs and cannot be mistyped into another session's id.
 */
public final class BedrockFactExtractor implements FactExtractor {

    static final String INSTRUCTIONS = """
            You extract durable facts from a conversation between a user and an AI agent, so that the agent \
            remembers them in later sessions. Messages are numbered; each has a role.

            Extract only what the USER stated or confirmed and what will still be true next week:
            - preference: how the user likes things done (tools, style, language, formats);
            - convention: rules the user's team follows (naming, branching, reviews, formatting);
            - decision: choices made (technologies adopted or dropped, designs, vendors);
            - environment: where and on what things run (clouds, regions, versions, hosts, databases);
            - fact: other stable facts about the user, the team or the project.
            When the user explicitly asks to remember something ("remember that ...", "记住..."), extract it with \
            explicit=true even if it looks minor.

            Do not extract: greetings, thanks, chatter; questions; temporary state (what is true only right now, \
            today, for this session, "for now", "暂时", "今天"); what only the assistant or a tool said; and never \
            any credential, token, password, key or connection string — list such statements under skipped with \
            reason "secret" and the secret replaced by [REDACTED].

            Each fact: one self-contained sentence in the user's language that makes sense without the \
            conversation (resolve "it", "that", "we" to names where the conversation makes them clear; keep names, \
            versions and numbers exactly); a confidence between 0 and 1 (0.9+ for explicit statements, 0.6-0.8 \
            for implied ones); evidence = the numbers of the messages that state it. When a later message changes \
            an earlier fact, extract only the latest value. Each skipped item: the text and a reason among \
            chatter, question, temporary, assistant, secret, other.

            Answer only with the JSON object described by the schema.""";

    static final String SCHEMA = """
            {"type":"object","properties":{\
            "facts":{"type":"array","items":{"type":"object","properties":{\
            "type":{"type":"string","enum":["preference","convention","decision","environment","fact"]},\
            "content":{"type":"string"},"confidence":{"type":"number"},\
            "evidence":{"type":"array","items":{"type":"integer"}},"explicit":{"type":"boolean"}},\
            "required":["type","content","confidence","evidence","explicit"],"additionalProperties":false}},\
            "skipped":{"type":"array","items":{"type":"object","properties":{\
            "text":{"type":"string"},"reason":{"type":"string"}},\
            "required":["text","reason"],"additionalProperties":false}}},\
            "required":["facts","skipped"],"additionalProperties":false}""";

    private static final Set<String> TYPES = Set.of("preference", "convention", "decision", "environment", "fact");

    private final BedrockClaude claude;
    private final SecretScanner scanner;

    public BedrockFactExtractor(BedrockClaude claude, SecretScanner scanner) {
        this.claude = claude;
        this.scanner = scanner;
    }

    @Override
    public Extraction extract(List<SessionMessage> messages) {
        if (messages.stream().noneMatch(m -> m.role() == SessionMessage.Role.USER)) {
            return new Extraction(List.of(), List.of()); // nothing the user said: no call, no cost
        }
        Map<Integer, SessionMessage> byNumber = new HashMap<>();
        StringBuilder input = new StringBuilder("Conversation:\n");
        for (int i = 0; i < messages.size(); i++) {
            SessionMessage m = messages.get(i);
            byNumber.put(i + 1, m);
            input.append(i + 1)
                    .append(". [")
                    .append(m.role().name().toLowerCase(Locale.ROOT))
                    .append("] ")
                    .append(m.content())
                    .append('\n');
        }
        JsonNode answer = claude.structured(INSTRUCTIONS, "extracted_facts", SCHEMA, input.toString());
        List<Fact> facts = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        for (JsonNode f : answer.path("facts")) {
            String content = f.path("content").asText("").strip();
            String type = f.path("type").asText("");
            double confidence = f.path("confidence").asDouble(Double.NaN);
            LinkedHashSet<SessionMessage> evidence = new LinkedHashSet<>();
            for (JsonNode n : f.path("evidence")) {
                SessionMessage m = byNumber.get(n.asInt(-1));
                if (m != null && m.role() == SessionMessage.Role.USER) {
                    evidence.add(m);
                }
            }
            List<Finding> findings = scanner.scan(content);
            if (!findings.isEmpty()) {
                skipped.add(new Skipped(SecretScanner.redact(content, findings), "secret"));
            } else if (content.isEmpty() || !TYPES.contains(type)) {
                skipped.add(new Skipped(content, "invalid: type '" + type + "'"));
            } else if (evidence.isEmpty()) {
                skipped.add(new Skipped(content, "no evidence in the user's messages"));
            } else if (!(confidence >= 0 && confidence <= 1)) {
                skipped.add(new Skipped(content, "invalid: confidence " + f.path("confidence")));
            } else {
                facts.add(new Fact(
                        MemoryType.fromWire(type),
                        content,
                        confidence,
                        List.copyOf(evidence),
                        f.path("explicit").asBoolean(false)));
            }
        }
        for (JsonNode s : answer.path("skipped")) {
            String text = s.path("text").asText("");
            List<Finding> findings = scanner.scan(text);
            skipped.add(new Skipped(
                    findings.isEmpty() ? text : SecretScanner.redact(text, findings),
                    s.path("reason").asText("other")));
        }
        return new Extraction(facts, skipped);
    }
}
