package dev.cairn.mcp;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cairn.http.MemoryView;
import dev.cairn.model.cache.ContextAssembler;
import dev.cairn.model.id.Id;
import dev.cairn.model.session.SessionMessage;
import dev.cairn.model.sync.ConflictRecord;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What the tools answer: the HTTP API's bodies for the same calls (API.md), written by {@link McpJson}. A memory and a
 * recall answer are http-common's {@link MemoryView} and {@link dev.cairn.http.RecallAnswer}, the REST resources' own;
 * the session and sync bodies below mirror records that live in the Lambda modules (session-summarize, team-sync),
 * which this module cannot depend on without serving their routes too.
 */
final class Views {

    private Views() {}

    record MemoryPage(List<MemoryView> memories, String nextCursor) {}

    record Forgotten(String id, boolean deleted) {}

    record Appended(String messageId, long messageCount, long summaryVersion, List<String> remembered) {}

    @JsonInclude(JsonInclude.Include.ALWAYS)
    record MessageView(String id, long seq, String role, String content, Instant occurredAt) {
        static MessageView of(SessionMessage m) {
            return new MessageView(
                    m.id().value(), m.seq(), m.role().name().toLowerCase(Locale.ROOT), m.content(), m.occurredAt());
        }
    }

    record SessionView(
            String rollingSummary,
            List<MessageView> recentMessages,
            List<String> tempFacts,
            long summaryVersion,
            long messageCount,
            boolean ended) {}

    record BlockView(String kind, String text, int tokens, Map<String, String> cacheControl) {}

    record PlanView(int breakpoints, int stablePrefixTokens, int minCacheableTokens, String ttl) {}

    record MemoryLine(
            String id,
            String type,
            String scope,
            String content,
            @JsonInclude(JsonInclude.Include.NON_NULL) String context) {}

    record ContextView(
            long turn, String model, List<BlockView> blocks, PlanView promptCache, List<MemoryLine> memories) {
        static ContextView of(ContextAssembler.Context c) {
            return new ContextView(
                    c.turn(),
                    c.model(),
                    c.blocks().stream()
                            .map(b -> new BlockView(b.kind(), b.text(), b.tokens(), b.cacheControl()))
                            .toList(),
                    new PlanView(
                            c.plan().breakpoints(),
                            c.plan().stablePrefixTokens(),
                            c.plan().minCacheableTokens(),
                            c.plan().ttl()),
                    c.memories().stream()
                            .map(m -> new MemoryLine(
                                    m.id().value(), m.type().wire(), m.scope().wire(), m.content(), m.context()))
                            .toList());
        }
    }

    record Stored(String key, long bytes) {}

    /** {@code result} is the stored JSON value itself. */
    record CacheLookup(boolean hit, Object result, Long ageSeconds, String reason) {}

    record SyncStatus(String team, long version, int openConflicts, Long lastChangeVersion, Instant lastChangeAt) {}

    record ConflictView(
            String id,
            String factId,
            long baseVersion,
            long currentVersion,
            String currentContent,
            String proposedContent,
            String clientId,
            Instant createdAt,
            String status,
            String resolution) {
        static ConflictView of(ConflictRecord c) {
            return new ConflictView(
                    c.id().value(),
                    c.factId().value(),
                    c.baseVersion(),
                    c.currentVersion(),
                    c.currentContent(),
                    c.proposed() == null ? null : c.proposed().content(),
                    c.clientId().value(),
                    c.createdAt(),
                    c.status(),
                    c.resolution());
        }
    }

    record Conflicts(List<ConflictView> conflicts) {}

    private static List<String> values(List<Id> ids) {
        return ids.stream().map(Id::value).toList();
    }
}
