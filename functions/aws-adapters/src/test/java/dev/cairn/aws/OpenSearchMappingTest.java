package dev.cairn.aws;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * The index mapping the AWS profile sends (faiss engine, as the stack configures) is exactly the documented one: a
 * strict mapping whose vector field is faiss HNSW in the {@code innerproduct} space, a space every OpenSearch
 * Serverless vector collection accepts (see {@link OpenSearchVectorIndex#SPACE}), with the model pinned in
 * {@code _meta}, and whose text field uses the index's {@code cairn_text} analyser (standard tokens, CJK bigrams,
 * English stop words: the embedded index's chain, so both backends feed the same BM25 to the fusion); and a kNN score
 * turns back into the cosine it came from.
 */
class OpenSearchMappingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theAwsProfilesMapping_isTheDocumentedFaissInnerProductMapping() throws Exception {
        JsonNode sent = JSON.readTree(json("faiss"));

        JsonNode expected = JSON.readTree("""
                {
                  "dynamic": "strict",
                  "_meta": {"cairn_model": "amazon.titan-embed-text-v2:0/1024", "dimensions": 1024,
                            "cairn_space": "innerproduct"},
                  "properties": {
                    "key": {"type": "keyword"}, "team": {"type": "keyword"}, "memory_id": {"type": "keyword"},
                    "user": {"type": "keyword"}, "scope": {"type": "keyword"}, "type": {"type": "keyword"},
                    "tags": {"type": "keyword"}, "model": {"type": "keyword"},
                    "version": {"type": "long"}, "occurred_at": {"type": "date"},
                    "text": {"type": "text", "analyzer": "cairn_text"},
                    "v": {"type": "knn_vector", "dimension": 1024,
                          "method": {"name": "hnsw", "engine": "faiss", "space_type": "innerproduct",
                                     "parameters": {"m": 16, "ef_construction": 128}}}
                  }
                }
                """);
        assertThat(sent).isEqualTo(expected);
    }

    @Test
    void theLocalNodesMapping_differsOnlyInTheEngine() throws Exception {
        JsonNode aws = JSON.readTree(json("faiss"));
        JsonNode local = JSON.readTree(json("lucene"));

        ((com.fasterxml.jackson.databind.node.ObjectNode)
                        local.get("properties").get("v").get("method"))
                .put("engine", "faiss");
        assertThat(local).isEqualTo(aws);
    }

    @Test
    void theTextAnalyser_isTheEmbeddedIndexsChain_cjkBigramsBeforeEnglishStopWords() throws Exception {
        // TextAnalyzers.cjkBigrams: StandardTokenizer, CJKWidthFilter, LowerCaseFilter, CJKBigramFilter, StopFilter
        JsonNode expected = JSON.readTree("""
                {
                  "filter": {"cairn_english_stop": {"type": "stop", "stopwords": ["_english_"]}},
                  "analyzer": {"cairn_text": {"type": "custom", "tokenizer": "standard",
                               "filter": ["cjk_width", "lowercase", "cjk_bigram", "cairn_english_stop"]}}
                }
                """);
        assertThat((JsonNode) OpenSearchVectorIndex.textAnalysis()).isEqualTo(expected);
    }

    @Test
    void aKnnScore_turnsBackIntoTheCosine_inEitherSpace() {
        for (double cos = -1.0; cos <= 1.0; cos += 0.125) {
            // OpenSearch's innerproduct score of a dot product d: d + 1 when d >= 0, 1 / (1 - d) below
            double innerProductScore = cos >= 0 ? cos + 1 : 1 / (1 - cos);
            assertThat(OpenSearchVectorIndex.cosineOfScore("innerproduct", innerProductScore))
                    .isCloseTo(cos, within(1e-12));
            assertThat(OpenSearchVectorIndex.cosineOfScore("cosinesimil", (1 + cos) / 2))
                    .isCloseTo(cos, within(1e-12));
        }
    }

    @Test
    void storedAndQueryVectors_areUnitLength_soTheInnerProductIsTheCosine() {
        float[] v = OpenSearchVectorIndex.normalized(new float[] {3, 4, 0});
        assertThat(v).containsExactly(0.6f, 0.8f, 0f);
        assertThat(OpenSearchVectorIndex.normalized(new float[] {0, 0})).containsExactly(0f, 0f);
    }

    private static String json(String engine) throws Exception {
        return JSON.writeValueAsString(
                OpenSearchVectorIndex.mapping(engine, "amazon.titan-embed-text-v2:0/1024", 1024));
    }
}
