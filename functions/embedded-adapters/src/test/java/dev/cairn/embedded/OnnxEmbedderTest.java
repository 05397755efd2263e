package dev.cairn.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

class OnnxEmbedderTest {

    static double cosine(float[] a, float[] b) {
        double dot = 0;
        double na = 0;
        double nb = 0;
        for (int i = 0; i < a.length; i++) {
            dot += a[i] * b[i];
            na += a[i] * a[i];
            nb += b[i] * b[i];
        }
        return dot / Math.sqrt(na * nb);
    }

    @Test
    void english_shouldPlaceAParaphraseNearerThanUnrelatedFacts() {
        OnnxEmbedder e = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
        assertThat(e.modelId()).isEqualTo("bge-small-en-v15-q");
        assertThat(e.dimensions()).isEqualTo(384);
        List<float[]> docs = e.embedDocuments(List.of(
                "We use PostgreSQL 16 for every new service",
                "Alice prefers dark mode in her editor",
                "The CI pipeline runs on GitHub Actions"));
        float[] q = e.embedQuery("what database does the team prefer?");
        assertThat(cosine(q, docs.get(0))).isGreaterThan(cosine(q, docs.get(1))).isGreaterThan(0.5);
        assertThat(cosine(q, docs.get(0))).isGreaterThan(cosine(q, docs.get(2)));
    }

    @Test
    void batchAndSingleEmbeddings_shouldAgree() {
        OnnxEmbedder e = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_EN, ForkJoinPool.commonPool());
        float[] single = e.embedDocuments(List.of("tabs over spaces")).get(0);
        float[] batched =
                e.embedDocuments(List.of("something else", "tabs over spaces")).get(1);
        assertThat(cosine(single, batched)).isGreaterThan(0.9999);
    }

    @Test
    void chinese_shouldBeSelectable_andMatchAChineseParaphrase() {
        OnnxEmbedder e = OnnxEmbedder.load(OnnxEmbedder.BGE_SMALL_ZH, ForkJoinPool.commonPool());
        assertThat(e.dimensions()).isEqualTo(512);
        List<float[]> docs = e.embedDocuments(List.of("我们所有新服务都使用 PostgreSQL 16 数据库", "张三喜欢在编辑器里用深色主题"));
        float[] q = e.embedQuery("团队用什么数据库？");
        assertThat(cosine(q, docs.get(0))).isGreaterThan(cosine(q, docs.get(1)));
    }

    @Test
    void unknownModel_shouldBeRefusedWithTheSupportedList() {
        assertThatThrownBy(() -> OnnxEmbedder.load("gpt-embed", ForkJoinPool.commonPool()))
                .hasMessageContaining("bge-small-en-v15-q")
                .hasMessageContaining("bge-small-zh-v15-q");
    }
}
