package dev.cairn.http;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import dev.cairn.model.consolidate.Consolidator;
import dev.cairn.model.session.FactExtractor;
import dev.cairn.model.session.SessionService;
import java.util.List;
import java.util.Locale;

/**
 * What ending a session answers, on HTTP ({@code POST …/end}) and MCP ({@code session_end}) alike: one shape, so a
 * client written against one reads the other (a trial found the MCP tool nesting each memory under {@code memory} and
 * dropping the skip scores that HTTP gives).
 */
public record SessionEndAnswer(List<Extracted> extracted, List<Skipped> skipped) {

    public static SessionEndAnswer of(SessionService.Ended ended) {
        return new SessionEndAnswer(
                ended.extracted().stream().map(Extracted::of).toList(),
                ended.skipped().stream().map(Skipped::of).toList());
    }

    /**
     * An extracted memory on the wire: the memory exactly as {@code GET …/memories/{id}} answers it ({@link
     * MemoryView}, unwrapped into this object, so one client-side model fits both), and what consolidation did with
     * it: {@code created}, {@code reinforced}, {@code superseded} (it replaced {@code supersedes}) or {@code outdated}
     * (an older statement stored as history).
     */
    public record Extracted(
            @JsonUnwrapped MemoryView memory,
            String consolidation,
            @JsonInclude(JsonInclude.Include.NON_NULL) String supersedes) {

        static Extracted of(Consolidator.Outcome o) {
            return new Extracted(
                    MemoryView.of(o.memory()),
                    o.action().name().toLowerCase(Locale.ROOT),
                    o.action() == Consolidator.Action.SUPERSEDED
                            ? o.previous().id().value()
                            : null);
        }
    }

    /** A statement left out: its text (a secret redacted), why, and the extractor's score where it has one. */
    public record Skipped(
            String text,
            String reason,
            @JsonInclude(JsonInclude.Include.NON_NULL) Double score) {

        public static Skipped of(FactExtractor.Skipped s) {
            return new Skipped(s.text(), s.reason(), s.score());
        }
    }
}
