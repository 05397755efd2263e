package dev.cairn.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.StoreUnavailable;
import dev.cairn.model.id.Id;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.secret.SecretScanner;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionMessage;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Bedrock extractor against a local stand-in: the model proposes, Cairn checks what it proposes. */
class BedrockFactExtractorTest {

    private BedrockStandIn bedrock;
    private BedrockFactExtractor extractor;

    @BeforeEach
    void start() throws Exception {
        bedrock = new BedrockStandIn();
        extractor = new BedrockFactExtractor(
                new BedrockClaude(bedrock.client(), "anthropic.claude-x", 2048), SecretScanner.bundled());
    }

    @AfterEach
    void stop() {
        bedrock.close();
    }

    private static List<SessionMessage> conversation() {
        String[] said = {
            "user:I prefer Neovim with 4-space indentation.",
            "user:Remember that releases are tagged vYYYY.MM.DD.",
            "user:We decided: Billing moves to PostgreSQL 17 on Aurora.",
            "user:it connects with the usual string",
            "user:The new dashboard looks nice.",
            "assistant:Noted all of that.",
            "tool:{\"ok\":true}",
            "user:Thanks, that helps!",
            "assistant:Releases are tagged vYYYY.MM.DD, right?"
        };
        List<SessionMessage> out = new ArrayList<>();
        for (int i = 0; i < said.length; i++) {
            String[] p = said[i].split(":", 2);
            out.add(new SessionMessage(
                    new Id("m" + (i + 1)),
                    i + 1,
                    SessionMessage.Role.valueOf(p[0].toUpperCase()),
                    p[1],
                    Instant.parse("2026-11-30T10:00:00Z").plusSeconds(i)));
        }
        return out;
    }

    @Test
    void extract_shouldReturnTheModelsFacts_withEvidenceMappedToMessageIds() {
        bedrock.answering("converse-extract.json");
        FactExtractor.Extraction x = extractor.extract(conversation());

        assertThat(x.facts())
                .extracting(FactExtractor.Fact::type)
                .containsExactly(MemoryType.PREFERENCE, MemoryType.DECISION, MemoryType.CONVENTION);
        FactExtractor.Fact convention = x.facts().get(2);
        assertThat(convention.explicit()).isTrue();
        // the model cited messages 2 and 9; 9 is the assistant's, which is no evidence of what the user said
        assertThat(convention.evidence()).extracting(m -> m.id().value()).containsExactly("m2");
        assertThat(x.facts().get(0).evidence()).extracting(m -> m.id().value()).containsExactly("m1");

        var body = bedrock.requests.get(0).body();
        assertThat(body.get("system").get(1).get("cachePoint").get("type").asText())
                .isEqualTo("default");
        assertThat(body.get("outputConfig")
                        .get("textFormat")
                        .get("structure")
                        .get("jsonSchema")
                        .get("name")
                        .asText())
                .isEqualTo("extracted_facts");
        assertThat(body.get("messages").get(0).get("content").get(0).get("text").asText())
                .contains("1. [user] I prefer Neovim", "6. [assistant] Noted", "7. [tool]");
    }

    @Test
    void whatTheModelShouldNotHaveProposed_shouldBeSkipped_withTheSecretRedacted() {
        bedrock.answering("converse-extract.json");
        FactExtractor.Extraction x = extractor.extract(conversation());

        assertThat(x.skipped())
                .extracting(FactExtractor.Skipped::reason)
                .containsExactly("secret", "invalid: type 'opinion'", "chatter", "temporary");
        assertThat(x.skipped().get(0).text()).contains("[REDACTED:").doesNotContain("Xk9#mQ2vLp7");
        assertThat(x.facts()).extracting(FactExtractor.Fact::content).noneMatch(c -> c.contains("postgres://"));
    }

    @Test
    void aConversationWithoutUserMessages_shouldNotCallTheModel() {
        FactExtractor.Extraction x = extractor.extract(conversation().subList(5, 7));
        assertThat(x.facts()).isEmpty();
        assertThat(bedrock.requests).isEmpty();
    }

    @Test
    void whenBedrockIsUnavailable_extractionShouldFailAs503_notInventFacts() {
        bedrock.failing(429, "Too many requests");
        assertThatThrownBy(() -> extractor.extract(conversation()))
                .isInstanceOf(StoreUnavailable.class)
                .hasMessageContaining("language model");
    }
}
