package dev.cairn.model.recall;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.model.error.ContentTooLarge;
import dev.cairn.model.error.InvalidInput;
import dev.cairn.model.memory.MemoryType;
import dev.cairn.model.memory.Scope;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecallDraftTest {

    private static final RecallSettings SETTINGS = RecallSettings.DEFAULTS;

    private static RecallDraft draft(Integer topK, RecallDraft.Weights w, Double halfLife, Integer candidates) {
        return new RecallDraft("what database?", topK, null, null, null, w, halfLife, candidates, null);
    }

    @Test
    void validate_shouldApplyConfiguredDefaults_whenFieldsAreAbsent() {
        RecallQuery q = draft(null, null, null, null).validate(SETTINGS);
        assertThat(q.topK()).isEqualTo(10);
        assertThat(q.weights()).isEqualTo(SETTINGS.weights());
        assertThat(q.candidates()).isEqualTo(50);
        assertThat(q.scope()).isNull();
    }

    @Test
    void validate_shouldOverrideOnlyTheGivenWeights() {
        RecallQuery q =
                draft(5, new RecallDraft.Weights(null, 0.1, null), 7.0, null).validate(SETTINGS);
        assertThat(q.weights()).isEqualTo(new RecallWeights(0.7, 0.1, 0.15, 7.0));
    }

    @Test
    void validate_shouldScaleWeightsSummingPastOne_soThatScoresStayWithinOne_inTheSameProportions() {
        // a new user's trial: {"alpha": 1} on top of the default beta and gamma gave scores of 1.2
        RecallWeights w = draft(5, new RecallDraft.Weights(null, 0.9, null), null, null)
                .validate(SETTINGS)
                .weights();
        assertThat(w.alpha() + w.beta() + w.gamma()).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(w.alpha()).isCloseTo(0.7 / 1.75, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(w.beta()).isCloseTo(0.9 / 1.75, org.assertj.core.data.Offset.offset(1e-12));
        assertThat(w.gamma()).isCloseTo(0.15 / 1.75, org.assertj.core.data.Offset.offset(1e-12));
    }

    @Test
    void validate_shouldGrowTheCandidatePool_withTopK() {
        assertThat(draft(40, null, null, null).validate(SETTINGS).candidates()).isEqualTo(200);
    }

    @Test
    void validate_shouldReportEveryBadField_atOnce() {
        assertThatThrownBy(() -> draft(-1, new RecallDraft.Weights(2.0, -0.5, null), 0.0, null)
                        .validate(SETTINGS))
                .isInstanceOf(InvalidInput.class)
                .satisfies(e -> assertThat(((InvalidInput) e).errors())
                        .extracting("field")
                        .containsExactly("top_k", "weights.alpha", "weights.beta", "half_life_days"));
    }

    @Test
    void validate_shouldExplainTheHalfLifeRange_inDays() {
        assertThatThrownBy(() -> draft(3, null, -2.0, null).validate(SETTINGS))
                .hasMessageContaining("half_life_days must be above 0 and at most 36500 days (got -2.0)");
    }

    @Test
    void validate_shouldRefuseAllZeroWeights() {
        assertThatThrownBy(() -> draft(3, new RecallDraft.Weights(0.0, 0.0, 0.0), null, null)
                        .validate(SETTINGS))
                .isInstanceOf(InvalidInput.class)
                .hasMessageContaining("positive");
    }

    @Test
    void validate_shouldRefuseACandidatePoolSmallerThanTopK() {
        assertThatThrownBy(() -> draft(10, null, null, 5).validate(SETTINGS)).hasMessageContaining("candidates");
    }

    @Test
    void validate_shouldParseScopeTypesAndTags() {
        RecallQuery q = new RecallDraft(
                        "q",
                        3,
                        "team",
                        List.of("decision", "convention"),
                        List.of("db"),
                        null,
                        null,
                        null,
                        "2026-01-01T00:00:00Z")
                .validate(SETTINGS);
        assertThat(q.scope()).isEqualTo(Scope.TEAM);
        assertThat(q.types()).containsExactlyInAnyOrder(MemoryType.DECISION, MemoryType.CONVENTION);
        assertThat(q.tags()).extracting("value").containsExactly("db");
        assertThat(q.asOf()).isNotNull();
    }

    @Test
    void validate_shouldAnswer413_forAnOverLongQuery() {
        RecallDraft d = new RecallDraft("q".repeat(9000), null, null, null, null, null, null, null, null);
        assertThatThrownBy(() -> d.validate(SETTINGS)).isInstanceOf(ContentTooLarge.class);
    }
}
