package dev.cairn.aws;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cairn.model.port.Embedder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.bedrockruntime.BedrockRuntimeClient;
import software.amazon.awssdk.services.bedrockruntime.model.InvokeModelResponse;

/**
 * {@link Embedder} on Amazon Titan Text Embeddings V2 through Bedrock's InvokeModel. Titan V2 embeds one text per
 * call, so a batch is a loop; the SDK client's standard retry strategy handles throttling.
 *
 * <p>The model id Cairn stores with each vector names the output size too ({@code titan-embed-text-v2-1024}): vectors
 * of different sizes are different models for recall's purposes.
 */
public final class BedrockTitanEmbedder implements Embedder {

    public static final String BEDROCK_MODEL = "amazon.titan-embed-text-v2:0";
    private static final Set<Integer> SIZES = Set.of(256, 512, 1024);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final BedrockRuntimeClient bedrock;
    private final int dimensions;

    public BedrockTitanEmbedder(BedrockRuntimeClient bedrock, int dimensions) {
        if (!SIZES.contains(dimensions)) {
            throw new IllegalArgumentException(
                    "Titan text embeddings v2 produce 256, 512 or 1024 dimensions, not " + dimensions);
        }
        this.bedrock = bedrock;
        this.dimensions = dimensions;
    }

    @Override
    public String modelId() {
        return "titan-embed-text-v2-" + dimensions;
    }

    @Override
    public int dimensions() {
        return dimensions;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        List<float[]> out = new ArrayList<>(texts.size());
        for (String t : texts) {
            out.add(embed(t));
        }
        return out;
    }

    @Override
    public float[] embedQuery(String query) {
        return embed(query);
    }

    private float[] embed(String text) {
        ObjectNode body = JSON.createObjectNode()
                .put("inputText", text)
                .put("dimensions", dimensions)
                .put("normalize", true);
        InvokeModelResponse r = bedrock.invokeModel(b -> b.modelId(BEDROCK_MODEL)
                .contentType("application/json")
                .accept("application/json")
                .body(SdkBytes.fromUtf8String(body.toString())));
        try {
            JsonNode embedding = JSON.readTree(r.body().asByteArray()).path("embedding");
            if (!embedding.isArray() || embedding.size() != dimensions) {
                throw new IllegalStateException(
                        "Bedrock answered an embedding of " + embedding.size() + " values; expected " + dimensions);
            }
            float[] v = new float[dimensions];
            for (int i = 0; i < dimensions; i++) {
                v[i] = (float) embedding.get(i).asDouble();
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException("Bedrock answered something that is not JSON", e);
        }
    }
}
