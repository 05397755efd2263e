package dev.cairn.aws;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/**
 * The AWS adapters' configuration ({@code cairn.aws.*}). In Lambda every value comes from the stack's environment
 * variables ({@code CAIRN_AWS_DYNAMODB_TABLE} is {@code cairn.aws.dynamodb.table}); endpoints are set only for local
 * stand-ins (dynalite, S3Mock, an OpenSearch node, a Bedrock stand-in).
 */
@ConfigMapping(prefix = "cairn.aws")
public interface AwsConfig {

    /** Region of every AWS client; the SDK's default region chain when absent (AWS_REGION in Lambda). */
    Optional<String> region();

    /** How long one AWS call may take, the SDK's retries included. */
    @WithDefault("10s")
    Duration apiCallTimeout();

    Dynamodb dynamodb();

    Opensearch opensearch();

    Bedrock bedrock();

    S3 s3();

    interface S3 {
        /** The bucket for large tool-cache results and cold memories; without it, results over 300 KB get 413. */
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

        @WithDefault("none")
        Signing signing();

        @WithDefault("cairn-memories")
        String index();

        @WithDefault("lucene")
        Engine engine();

        @WithDefault("custom")
        OpenSearchVectorIndex.DocumentIds documentIds();

        /**
         * When index writes become searchable: {@code true} (at once, before the write returns), {@code wait_for} (at
         * the next scheduled refresh) or {@code false} (Serverless, which refuses the parameter).
         */
        @WithDefault("true")
        Refresh refresh();

        /** Primary shards when Cairn creates the index; unset for Serverless. */
        Optional<Integer> shards();

        Optional<Integer> replicas();

        @WithDefault("200")
        int minCandidates();
    }

    /** The SigV4 service name requests are signed for. */
    enum Signing {
        /** A local node over plain HTTP. */
        NONE,
        /** OpenSearch Serverless. */
        AOSS,
        /** An OpenSearch Service managed domain. */
        ES
    }

    enum Engine {
        LUCENE,
        FAISS
    }

    enum Refresh {
        TRUE,
        WAIT_FOR,
        FALSE
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
