package dev.cairn.model.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryDraftTest {

    private static MemoryDraft content(String c) {
        return new MemoryDraft(c, null, null, null, null, null, null, null, null);
    }

    @Test
    void validate_shouldApplyTheContractDefaults() {
        NewMemory m = content("We use PostgreSQL 16").validate(MemoryLimits.DEFAULTS);
        assertThat(m.type()).isEqualTo(MemoryType.FACT);
        assertThat(m.scope()).isEqualTo(Scope.USER);
        assertThat(m.importance()).isEqualTo(0.5);
        assertThat(m.confidence()).isEqualTo(1.0);
        assertThat(m.tags()).isEmpty();
    }

    @Test
    void validate_shouldAnswer413_justAboveTheCap_andAcceptExactlyTheCap() {
        MemoryLimits limits = new MemoryLimits(10, 4, 4, 10);
        assertThat(content("é".repeat(5)).validate(limits).content()).hasSize(5);
        assertThatThrownBy(() -> content("é".repeat(5) + "x").validate(limits))
                .isInstanceOf(ContentTooLarge.class)
                .hasMessageContaining("11 bytes");
    }

    @Test
    void validate_shouldRejectEmptyBlankAndNulContent() {
        for (String bad : new String[] {null, "", "  \n\t", "a\u0000b"}) {
            assertThatThrownBy(() -> content(bad).validate(MemoryLimits.DEFAULTS))
                    .isInstanceOf(InvalidInput.class);
        }
    }

    @Test
    void validate_shouldDeduplicateTags_andRejectBadOnes() {
        MemoryDraft ok =
                new MemoryDraft("x", "decision", "team", List.of("db", "db", "infra"), 0.0, 0.0, null, null, null);
        assertThat(ok.validate(MemoryLimits.DEFAULTS).tags())
                .extracting("value")
                .containsExactly("db", "infra");
        MemoryDraft bad =
                new MemoryDraft("x", "opinion", "world", List.of("Bad"), 1.5, -1.0, "yesterday", "A", List.of("../e"));
        assertThatThrownBy(() -> bad.validate(MemoryLimits.DEFAULTS))
                .isInstanceOf(InvalidInput.class)
                .satisfies(e -> assertThat(((InvalidInput) e).errors())
                        .extracting("field")
                        .containsExactly(
                                "type",
                                "scope",
                                "tags[0]",
                                "importance",
                                "confidence",
                                "occurred_at",
                                "source_session_id",
                                "evidence[0]"));
    }

    @Test
    void patch_shouldRequireAtLeastOneField() {
        PatchDraft empty = new PatchDraft(null, null, null, null, null, null, null, null);
        assertThatThrownBy(() -> empty.validate(MemoryLimits.DEFAULTS)).hasMessageContaining("no field");
    }
}
