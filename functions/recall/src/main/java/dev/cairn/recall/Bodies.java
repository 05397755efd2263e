package dev.cairn.recall;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.http.MemoryView;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.PatchDraft;
import dev.cairn.model.recall.RecallDraft;
import java.util.List;

/**
 * Request and response bodies of the recall function. Requests are read strictly (unknown fields are errors) and
 * hold raw values: all validation happens in the domain drafts they convert to.
 */
public final class Bodies {

    private Bodies() {}

    public record CreateMemory(
            String content,
            String type,
            String scope,
            List<String> tags,
            Double importance,
            Double confidence,
            String occurredAt,
            String sourceSessionId,
            List<String> evidence,
            String context) {
        MemoryDraft draft() {
            return new MemoryDraft(
                    content, type, scope, tags, importance, confidence, occurredAt, sourceSessionId, evidence, context);
        }
    }

    public record Batch(List<CreateMemory> memories) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BatchItem(int index, String status, MemoryView memory, Object error) {}

    public record BatchResult(List<BatchItem> results) {}

    public record Patch(
            String content,
            String type,
            List<String> tags,
            Double importance,
            Double confidence,
            String occurredAt,
            List<String> evidence,
            String state) {
        PatchDraft draft() {
            return new PatchDraft(content, type, tags, importance, confidence, occurredAt, evidence, state);
        }
    }

    public record MemoryPage(List<MemoryView> memories, String nextCursor) {}

    public record Weights(Double alpha, Double beta, Double gamma, Double lexical) {}

    public record Recall(
            String query,
            Integer topK,
            String scope,
            List<String> types,
            List<String> tags,
            Weights weights,
            Double halfLifeDays,
            Integer candidates,
            String asOf) {
        RecallDraft draft() {
            return new RecallDraft(
                    query,
                    topK,
                    scope,
                    types,
                    tags,
                    weights == null
                            ? null
                            : new RecallDraft.Weights(
                                    weights.alpha(), weights.beta(), weights.gamma(), weights.lexical()),
                    halfLifeDays,
                    candidates,
                    asOf);
        }
    }
}
