package dev.cairn.app;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Locale;

/**
 * Which adapter serves each port ({@code cairn.backend.*}), chosen at start-up so one build runs both shapes: the
 * embedded default (SQLite, Lucene, ONNX) on one machine, DynamoDB + OpenSearch + Bedrock in AWS or against their local
 * stand-ins. Every choice is an enum: any other value stops the start with the property's name and the allowed values
 * (SmallRye Config's enum converter), and a value whose adapter module is not in the package stops it too
 * ({@link Ports}).
 */
@ConfigMapping(prefix = "cairn.backend")
public interface BackendConfig {

    /** Memories, sessions, the session cache, the sync log and the cold tier. */
    @WithDefault("sqlite")
    RecordStore recordStore();

    @WithDefault("lucene")
    VectorIndexKind vectorIndex();

    @WithDefault("onnx")
    EmbedderKind embedder();

    @WithDefault("extractive")
    SummarizerKind summarizer();

    @WithDefault("embedded")
    ExtractorKind extractor();

    enum RecordStore {
        /** {@code memories.db}, {@code sessions.db}, ... under {@code cairn.data-dir}; cold memories as files. */
        SQLITE,
        /** One DynamoDB table with conditional writes; cold memories in S3. */
        DYNAMODB
    }

    enum VectorIndexKind {
        /** Lucene HNSW + BM25 under {@code cairn.data-dir}. */
        LUCENE,
        /** An OpenSearch node, managed domain or Serverless collection (k-NN + BM25). */
        OPENSEARCH
    }

    enum EmbedderKind {
        /** In-process ONNX ({@code cairn.embedding.model}). */
        ONNX,
        /** Amazon Titan Text Embeddings V2 through Bedrock. */
        BEDROCK
    }

    enum SummarizerKind {
        /** In-process, extractive. */
        EXTRACTIVE,
        /** Claude through Bedrock Converse. */
        BEDROCK,
        /** Any OpenAI-compatible chat-completions endpoint ({@code cairn.openai.*}: Ollama, llama.cpp, vLLM, ...). */
        OPENAI
    }

    enum ExtractorKind {
        /**
         * In-process: the loaded embedding model's nearest labelled examples and a linear classifier, with precise
         * cues (English and Chinese).
         */
        EMBEDDED,
        /** In-process cue rules only (English and Chinese): the earlier default, kept as the baseline. */
        RULES,
        /** Claude through Bedrock Converse. */
        BEDROCK,
        /** Any OpenAI-compatible chat-completions endpoint ({@code cairn.openai.*}). */
        OPENAI
    }

    /** The configuration spelling of a kind, which is also its {@link Adapter} qualifier value. */
    static String name(Enum<?> kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
