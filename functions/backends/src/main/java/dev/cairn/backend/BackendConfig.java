package dev.cairn.backend;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * Which adapter serves each port, chosen at start-up so one build runs both shapes: the embedded default (SQLite,
 * Lucene, ONNX) on one machine, DynamoDB + OpenSearch (+ Bedrock) in AWS or against their local stand-ins.
 */
@ConfigMapping(prefix = "cairn")
public interface BackendConfig {

    Backend backend();

    Aws aws();

    interface Backend {
        /** {@code sqlite} or {@code dynamodb}. */
        @WithDefault("sqlite")
        String recordStore();

        /** {@code lucene} or {@code opensearch}. */
        @WithDefault("lucene")
        String vectorIndex();

        /** {@code onnx} (in-process, {@code cairn.embedding.model}) or {@code bedrock} (Titan text embeddings v2). */
        @WithDefault("onnx")
        String embedder();

        /** {@code extractive} (in-process) or {@code bedrock} (Claude through Converse, {@code cairn.aws.bedrock.text-model}). */
        @WithDefault("extractive")
        String summarizer();

        /** {@code rules} (in-process, English and Chinese cues) or {@code bedrock} (Claude through Converse). */
        @WithDefault("rules")
        String extractor();
    }

    interface Aws {
        /** Region of every AWS client; the SDK's default region chain when absent (AWS_REGION in Lambda). */
        Optional<String> region();

        /** How long one AWS call may take, the SDK's retries included. */
        @WithDefault("10s")
        Duration apiCallTimeout();

        Dynamodb dynamodb();

        Opensearch opensearch();

        Bedrock bedrock();

        S3 s3();
    }

    interface S3 {
        /** The bucket for large tool-cache results (and cold memories); without it, results over 300 KB get 413. */
        Optional<String> bucket();

        /** A local stand-in (S3Mock, LocalStack); AWS's endpoint when absent. Path-style addressing is then used. */
        Optional<URI> endpoint();
    }

    interface Dynamodb {
        @WithDefault("cairn-memories")
        String table();

        /** A local stand-in (dynalite, LocalStack); AWS's endpoint when absent. */
        Optional<URI> endpoint();

        /** Create the table at start-up when missing (local stand-ins; in AWS the CDK stack owns it). */
        @WithDefault("false")
        boolean createTable();
    }

    interface Opensearch {
        /**
         * {@code http://host:port} of a plain node, or the {@code https://…} endpoint of a Serverless collection or
         * managed domain (then {@code signing} must be {@code aoss} or {@code es}).
         */
        Optional<URI> url();

        /** {@code none} (local node), {@code aoss} (Serverless) or {@code es} (managed domain): SigV4 service name. */
        @WithDefault("none")
        String signing();

        @WithDefault("cairn-memories")
        String index();

        /** {@code lucene} (local and managed) or {@code faiss}. */
        @WithDefault("lucene")
        String engine();

        /** {@code custom} ({@code team/id} with external versions) or {@code generated} (Serverless vector collections). */
        @WithDefault("custom")
        String documentIds();

        /**
         * When index writes become searchable: {@code true} (at once, before the write returns), {@code wait_for} (at
         * the next scheduled refresh) or {@code false} (Serverless, which refuses the parameter).
         */
        @WithDefault("true")
        String refresh();

        /** Primary shards when Cairn creates the index; unset for Serverless. */
        Optional<Integer> shards();

        Optional<Integer> replicas();

        @WithDefault("200")
        int minCandidates();
    }

    interface Bedrock {
        /** A local stand-in; AWS's endpoint when absent. */
        Optional<URI> endpoint();

        /** 256, 512 or 1024. */
        @WithDefault("1024")
        int dimensions();

        /** The Claude model (or inference profile) that summarizes and extracts; it must support structured output. */
        @WithDefault("us.anthropic.claude-haiku-4-5-20251001-v1:0")
        String textModel();

        /** The most output tokens one summarize or extract call may produce. */
        @WithDefault("2048")
        int maxTokens();
    }
}
