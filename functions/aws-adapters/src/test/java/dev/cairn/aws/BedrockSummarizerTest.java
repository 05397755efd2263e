package dev.cairn.aws;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionMessage;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The Bedrock summarizer against a local stand-in answering with a recorded Converse response. */
class BedrockSummarizerTest {

    private static final String MODEL = "us.anthropic.claude-haiku-4-5-20251001-v1:0";

    private BedrockStandIn bedrock;

    @BeforeEach
    void start() throws Exception {
        bedrock = new BedrockStandIn();
    }

    @AfterEach
    void stop() {
        bedrock.close();
    }

    private static List<SessionMessage> folded() {
        Instant t = Instant.parse("2026-11-30T09:00:00Z");
        return List.of(
                new SessionMessage(
                        new Id("m1"),
                        1,
                        SessionMessage.Role.USER,
                        "Dana here. We're moving Billing from PostgreSQL 16 to 17 on Aurora in eu-central-1.",
                        t),
                new SessionMessage(
                        new Id("m2"), 2, SessionMessage.Role.ASSISTANT, "Understood. When is the cut-over?", t),
                new SessionMessage(
                        new Id("m3"),
                        3,
                        SessionMessage.Role.USER,
                        "2026-12-14, 30-minute window. I prefer Neovim with 4 spaces, by the way.",
                        t));
    }

    @Test
    void fold_shouldSendFixedInstructionsThenACachePoint_andAskForTheSummarySchema() {
        bedrock.answering("converse-summary.json");
        String summary = new BedrockSummarizer(new BedrockClaude(bedrock.client(), MODEL, 1024))
                .fold("Dana is on the platform team.", folded(), 1200);

        assertThat(summary).contains("PostgreSQL 17", "Aurora", "eu-central-1", "2026-12-14", "Neovim");
        BedrockStandIn.Recorded r = bedrock.requests.get(0);
        assertThat(r.method()).isEqualTo("POST");
        assertThat(r.path()).isEqualTo("/model/us.anthropic.claude-haiku-4-5-20251001-v1%3A0/converse");
        assertThat(r.authorization())
                .startsWith("AWS4-HMAC-SHA256 Credential=AKIDTEST/")
                .contains("/us-east-1/bedrock/aws4_request");
        JsonNode system = r.body().get("system");
        assertThat(system).hasSize(2);
        assertThat(system.get(0).get("text").asText()).isEqualTo(BedrockSummarizer.INSTRUCTIONS);
        assertThat(system.get(1).get("cachePoint").get("type").asText()).isEqualTo("default");
        JsonNode user = r.body().get("messages").get(0);
        assertThat(user.get("role").asText()).isEqualTo("user");
        assertThat(user.get("content").get(0).get("text").asText())
                .contains("Character budget: 1200", "Dana is on the platform team.", "[assistant] Understood.");
        JsonNode format = r.body().get("outputConfig").get("textFormat");
        assertThat(format.get("type").asText()).isEqualTo("json_schema");
        assertThat(format.get("structure").get("jsonSchema").get("schema").asText())
                .isEqualTo(BedrockSummarizer.SCHEMA);
        assertThat(r.body().get("inferenceConfig").get("temperature").asDouble())
                .isZero();
    }

    @Test
    void theFixedPrefix_shouldBeByteIdenticalAcrossCalls_soThePromptCacheCanHit() {
        bedrock.answering("converse-summary.json");
        BedrockSummarizer summarizer = new BedrockSummarizer(new BedrockClaude(bedrock.client(), MODEL, 1024));
        summarizer.fold("", folded(), 1200);
        summarizer.fold("something else entirely", folded().subList(0, 1), 800);
        assertThat(bedrock.requests.get(0).body().get("system"))
                .isEqualTo(bedrock.requests.get(1).body().get("system"));
        assertThat(bedrock.requests.get(0).body().get("outputConfig"))
                .isEqualTo(bedrock.requests.get(1).body().get("outputConfig"));
    }

    @Test
    void whenBedrockFails_orTheSummaryIsOverBudget_theFoldShouldFallBackToTheExtractiveSummarizer() {
        bedrock.failing(500, "internal error");
        String summary =
                new BedrockSummarizer(new BedrockClaude(bedrock.client(), MODEL, 1024)).fold("", folded(), 600);
        assertThat(summary).isNotBlank().hasSizeLessThanOrEqualTo(600).contains("Aurora", "2026-12-14");
        assertThat(bedrock.requests).hasSizeGreaterThan(1); // the SDK retried before giving up

        bedrock.answering("converse-summary.json");
        String tight = new BedrockSummarizer(new BedrockClaude(bedrock.client(), MODEL, 1024))
                .fold("", folded(), 150); // the recorded summary is longer than this
        assertThat(tight).hasSizeLessThanOrEqualTo(150);
    }
}
