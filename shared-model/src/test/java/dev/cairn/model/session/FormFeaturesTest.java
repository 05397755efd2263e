package dev.cairn.model.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the masked form of a statement keeps and hides. */
class FormFeaturesTest {

    @Test
    void tokens_shouldMaskTheTopic_andKeepTheFrameOfARule() {
        assertThat(FormFeatures.tokens("We always run the linter before every merge."))
                .containsExactly("<s>", "we", "always", "run", "the", "_", "before", "every", "_", ".");
    }

    @Test
    void tokens_shouldGiveStatementsOfTheSameFormTheSameTokens_whateverTheirTopic() {
        assertThat(FormFeatures.tokens("I'd rather take the train than fly."))
                .isEqualTo(FormFeatures.tokens("I'd rather read the brief than skim slides."));
    }

    @Test
    void tokens_shouldMarkNumbersAndMidSentenceNames_byTheirKind() {
        assertThat(FormFeatures.tokens("The NAS runs Synology DSM 7.2 with 4 disks."))
                .containsExactly(
                        "<s>", "the", "<Name>", "runs", "<Name>", "<Name>", "<num>", "with", "<num>", "_", ".");
    }

    @Test
    void tokens_shouldKeepChineseFrameWords_andMaskTheRest() {
        assertThat(FormFeatures.tokens("我们一律用 pnpm 装依赖。")).containsExactly("<s>", "我们", "一律", "用", "<latin>", "_", "。");
    }

    @Test
    void vector_shouldBeTheSameForTwoTopicsOfOneForm_andDifferForAnotherForm() {
        float[] rule = FormFeatures.vector("We always review the budget before every quarter.");
        float[] sameForm = FormFeatures.vector("We always water the plants before every trip.");
        float[] choice = FormFeatures.vector("We decided to drop the free tier.");

        assertThat(cosine(rule, sameForm)).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
        assertThat(cosine(rule, choice)).isLessThan(0.5);
    }

    @Test
    void vector_shouldBeAUnitVector_evenForAnEmptyStatement() {
        // only the start marker: one unigram, so the vector is a unit vector, not NaN
        float[] v = FormFeatures.vector("");
        assertThat(v).hasSize(FormFeatures.DIMENSIONS);
        double norm = 0;
        for (float x : v) {
            norm += x * x;
        }
        assertThat(norm).isCloseTo(1.0, org.assertj.core.data.Offset.offset(1e-6));
    }

    static double cosine(float[] a, float[] b) {
        double s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i] * b[i];
        }
        return s;
    }
}
