package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cairn.model.error.StoreUnavailable;
import java.io.IOException;
import java.time.Duration;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.CachePointBlock;
import software.amazon.awssdk.services.bedrockruntime.model.CachePointType;
import software.amazon.awssdk.services.bedrockruntime.model.ContentBlock;
import software.amazon.awssdk.services.bedrockruntime.model.ConversationRole;
import software.amazon.awssdk.services.bedrockruntime.model.ConverseResponse;
import software.amazon.awssdk.services.bedrockruntime.model.JsonSchemaDefinition;
import software.amazon.awssdk.services.bedrockruntime.model.Message;
import software.amazon.awssdk.services.bedrockruntime.model.OutputFormatStructure;
import software.amazon.awssdk.services.bedrockruntime.model.OutputFormatType;
import software.amazon.awssdk.services.bedrockruntime.model.StopReason;
import software.amazon.awssdk.services.bedrockruntime.model.SystemContentBlock;

/**
 * One structured call to Claude through Bedrock's Converse API: fixed instructions in the system prompt followed by a
 * cache point (the instructions and schema are the same on every call, so from the second call on they are read from
 * the prompt cache at a tenth of the input price, once they reach the model's minimum cacheable length), the
 * variable part as the user turn, and the answer constrained to a JSON schema ({@code outputConfig.textFormat}).
 * Temperature 0: summaries and facts should not vary between retries.
 */
public final class BedrockClaude {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final BedrockRuntimeClient bedrock;
    private final String modelId;
    private final int maxTokens;

    public BedrockClaude(BedrockRuntimeClient bedrock, String modelId, int maxTokens) {
        this.bedrock = bedrock;
        this.modelId = modelId;
        this.maxTokens = maxTokens;
    }

    public String modelId() {
        return modelId;
    }

    /**
     * The model's answer as JSON conforming to {@code schema}. Throws {@link StoreUnavailable} when Bedrock cannot
     * be reached or throttles beyond the SDK's retries, {@link IllegalStateException} when the answer is cut off or
     * not JSON.
     */
    public JsonNode structured(String instructions, String schemaName, String schema, String input) {
        ConverseResponse r;
        try {
            r = bedrock.converse(b -> b.modelId(modelId)
                    .system(
                            SystemContentBlock.fromText(instructions),
                            SystemContentBlock.fromCachePoint(CachePointBlock.builder()
                                    .type(CachePointType.DEFAULT)
                                    .build()))
                    .messages(Message.builder()
                            .role(ConversationRole.USER)
                            .content(ContentBlock.fromText(input))
                            .build())
                    .inferenceConfig(c -> c.maxTokens(maxTokens).temperature(0f))
                    .outputConfig(o -> o.textFormat(f -> f.type(OutputFormatType.JSON_SCHEMA)
                            .structure(OutputFormatStructure.fromJsonSchema(JsonSchemaDefinition.builder()
                                    .name(schemaName)
                                    .schema(schema)
                                    .build())))));
        } catch (SdkException e) {
            throw new StoreUnavailable("the language model (Bedrock " + modelId + ")", Duration.ofSeconds(5), e);
        }
        if (r.stopReason() == StopReason.MAX_TOKENS) {
            throw new IllegalStateException("Bedrock's answer was cut off at " + maxTokens + " tokens");
        }
        String text = r.output().message().content().stream()
                .filter(c -> c.text() != null)
                .map(ContentBlock::text)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("Bedrock answered no text"));
        try {
            return JSON.readTree(text);
        } catch (IOException e) {
            throw new IllegalStateException("Bedrock answered text that is not JSON", e);
        }
    }
}
