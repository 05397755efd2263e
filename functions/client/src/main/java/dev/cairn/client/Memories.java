package dev.cairn.client;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/** The wire types of the memories and recall routes (API.md § Memories, § Recall), snake_case on the wire. */
public final class Memories {

    private Memories() {}

    /** A stored memory as the server answers it. Timestamps are RFC 3339 strings as sent. */
    public record Memory(
            String id,
            String team,
            String user,
            String scope,
            String type,
            String content,
            List<String> tags,
            double importance,
            double confidence,
            String occurredAt,
            String createdAt,
            String lastAccessedAt,
            long accessCount,
            String sourceSessionId,
            List<String> evidence,
            long version,
            String state,
            String context) {}

    /** {@code POST …/memories}; null fields take the server's defaults. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record NewMemory(
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

        public static NewMemory of(String content, String scope, String type) {
            return new NewMemory(content, type, scope, null, null, null, null, null, null, null);
        }

        /**
         * The same memory with a context: text it is also found by, matched by its words only (the reply a
         * conversation turn got, say), answered with it but not part of its content.
         */
        public NewMemory withContext(String text) {
            return new NewMemory(
                    content, type, scope, tags, importance, confidence, occurredAt, sourceSessionId, evidence, text);
        }
    }

    /** {@code PATCH …/memories/{id}}: the fields to change, null for "leave as is". */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Changes(
            String content, String type, List<String> tags, Double importance, Double confidence, String state) {

        public static Changes content(String content) {
            return new Changes(content, null, null, null, null, null);
        }
    }

    public record Page(List<Memory> memories, String nextCursor) {}

    /** {@code POST …/recall}; null fields take the server's defaults. */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record RecallRequest(
            String query, Integer topK, String scope, List<String> types, List<String> tags, String asOf) {

        public static RecallRequest of(String query, int topK) {
            return new RecallRequest(query, topK, null, null, null, null);
        }
    }

    public record Hit(Memory memory, double score, double similarity, double freshness, double confidence) {}

    public record RecallResults(List<Hit> results, String model, long tookMs) {}
}
