package dev.cairn.recall;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import dev.cairn.http.MemoryView;
import dev.cairn.http.NotAccepted;
import dev.cairn.http.Problem;
import dev.cairn.http.ProblemMappers;
import dev.cairn.model.memory.MemoryDraft;
import dev.cairn.model.memory.PatchDraft;
import dev.cairn.model.recall.RecallDraft;
import java.io.IOException;
import java.util.List;

/**
 * Request and response bodies of the recall function. Requests are read strictly (unknown fields are errors) and
 * hold raw values: all validation happens in the domain drafts they convert to.
 */
public final class Bodies {

    private Bodies() {}

    /**
     * {@code refused}: set, instead of the fields, when this item of a batch could not be bound (an unknown field, a
     * value of the wrong type); never read from the body.
     */
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
            String context,
            @JsonIgnore Problem refused) {
        MemoryDraft draft() {
            return new MemoryDraft(
                    content, type, scope, tags, importance, confidence, occurredAt, sourceSessionId, evidence, context);
        }

        static CreateMemory refused(Problem why) {
            return new CreateMemory(null, null, null, null, null, null, null, null, null, null, why);
        }
    }

    /**
     * Binds each item of a batch on its own, with the body's strict settings: an item that cannot be bound is kept as
     * {@link CreateMemory#refused} and rejected in its slot (API.md: one bad item does not fail the others), where
     * binding the list as a whole would refuse every item for one wrong value.
     */
    static final class EachItem extends StdDeserializer<CreateMemory> {

        EachItem() {
            super(CreateMemory.class);
        }

        @Override
        public CreateMemory deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            // at an object or array item the parser is already inside it: the item's index is its parent's
            var where = p.currentToken() != null && p.currentToken().isStructStart()
                    ? p.getParsingContext().getParent()
                    : p.getParsingContext();
            int index = where.getCurrentIndex();
            JsonNode item = ctxt.readTree(p);
            try {
                return ctxt.readTreeAsValue(item, CreateMemory.class);
            } catch (MismatchedInputException e) {
                return CreateMemory.refused(ProblemMappers.bindingProblem(e, "memories[" + index + "]"));
            }
        }
    }

    public record Batch(
            @JsonDeserialize(contentUsing = EachItem.class) List<CreateMemory> memories) {}

    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record BatchItem(int index, String status, MemoryView memory, Object error) {}

    public record BatchResult(List<BatchItem> results) {}

    @NotAccepted(
            field = "context",
            because = "a memory's context is set when it is written; to change it, delete the memory and write it"
                    + " again with the new context")
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
