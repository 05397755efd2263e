package dev.cairn.infra;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Everything a deployment may choose, read from CDK context ({@code cdk deploy -c jwtIssuer=… -c jwtAudience=…} or
 * {@code cdk.json}); names are the context keys. Values are checked here so a typo fails synth with a sentence rather
 * than a CloudFormation rollback twenty minutes later.
 *
 * @param jwtIssuer          issuer URL the API's JWT authorizer trusts (ignored when {@code cognito} creates one)
 * @param jwtAudience        accepted {@code aud} values (the Cognito app client when {@code cognito})
 * @param cognito            create a Cognito user pool and app client and trust them
 * @param authPublicKey      PEM public key the functions verify tokens with (second check behind the authorizer)
 * @param functionsDir       where each function's {@code target/function.zip} is looked for
 * @param memoryMb           default function memory; {@code memory.<function>} overrides one
 * @param timeoutSeconds     default function timeout; {@code timeout.<function>} overrides one
 * @param logRetentionDays   CloudWatch log retention (a value CloudWatch accepts: 1, 3, 5, 7, 14, 30, 60, 90, …)
 * @param throttleRate       API requests per second (steady state) across all routes
 * @param throttleBurst      API burst
 * @param decaySchedule      EventBridge schedule expression of the decay job
 * @param collectionName     OpenSearch Serverless collection (3–32 lower-case letters, digits, hyphens)
 * @param embeddingDimensions Titan Text Embeddings V2 output size (256, 512 or 1024)
 * @param textModel          Bedrock text model (inference profile) for summaries and extraction, or "" for the
 *                           extractive summarizer and rule-based extractor (no Bedrock text calls)
 * @param alarmEmail         where alarms are mailed ("" : alarms without a subscription)
 * @param standbyReplicas    OpenSearch Serverless redundancy across zones (false halves the OCU floor: dev only)
 * @param corsOrigins        browser origins allowed to call the API (the web console served elsewhere); empty: no
 *                           CORS at all, so no page of another origin can read an answer
 */
public record CairnSettings(
        String jwtIssuer,
        List<String> jwtAudience,
        boolean cognito,
        String authPublicKey,
        Path functionsDir,
        int memoryMb,
        Map<String, Integer> memoryOverrides,
        int timeoutSeconds,
        Map<String, Integer> timeoutOverrides,
        int logRetentionDays,
        int throttleRate,
        int throttleBurst,
        String decaySchedule,
        String collectionName,
        int embeddingDimensions,
        String textModel,
        String alarmEmail,
        boolean standbyReplicas,
        List<String> corsOrigins) {

    public static final List<String> FUNCTIONS = List.of(
            "recall", "session-summarize", "fact-extract", "team-sync", "secret-scan", "decay-job", "stream-indexer");

    /** The functions that answer API Gateway routes only (decay-job also runs on a schedule). */
    public static final List<String> API_FUNCTIONS =
            List.of("recall", "session-summarize", "fact-extract", "team-sync", "secret-scan");

    /** Under API Gateway's 30 s integration timeout, with a second for the gateway's own overhead. */
    public static final int API_GATEWAY_LIMIT_SECONDS = 29;

    public CairnSettings {
        if (!cognito && (jwtIssuer == null || !jwtIssuer.startsWith("https://"))) {
            throw new IllegalArgumentException("context jwtIssuer must be the https URL of the token issuer "
                    + "(or set -c cognito=true to create a user pool)");
        }
        if (!cognito && jwtAudience.isEmpty()) {
            throw new IllegalArgumentException("context jwtAudience must name at least one audience");
        }
        if (!collectionName.matches("[a-z][a-z0-9-]{2,31}")) {
            throw new IllegalArgumentException("context collectionName must be 3-32 lower-case letters, digits or "
                    + "hyphens starting with a letter: " + collectionName);
        }
        range("memoryMb", memoryMb, 128, 10240);
        range("timeoutSeconds", timeoutSeconds, 1, 900);
        memoryOverrides.forEach((f, v) -> range("memory." + f, v, 128, 10240));
        timeoutOverrides.forEach((f, v) -> range("timeout." + f, v, 1, 900));
        // API Gateway cuts every integration off after 30 s (HTTP APIs' maximum integration timeout): a longer Lambda
        // timeout only lets work continue that no client will see. decay-job bounds its API calls itself
        // (CAIRN_DECAY_MAX_RUN); its long timeout is for the schedule's runs.
        for (String f : API_FUNCTIONS) {
            int t = timeoutOverrides.getOrDefault(f, timeoutSeconds);
            if (t > API_GATEWAY_LIMIT_SECONDS) {
                throw new IllegalArgumentException("context timeout." + f + " (or timeoutSeconds) must be at most "
                        + API_GATEWAY_LIMIT_SECONDS + " s: API Gateway ends the request after 30 s, whatever the"
                        + " function does: " + t);
            }
        }
        QuarkusFunction.retention(logRetentionDays); // throws when CloudWatch would refuse it
        range("throttleRate", throttleRate, 1, 100_000);
        range("throttleBurst", throttleBurst, 1, 100_000);
        if (embeddingDimensions != 256 && embeddingDimensions != 512 && embeddingDimensions != 1024) {
            throw new IllegalArgumentException("context embeddingDimensions must be 256, 512 or 1024 (Titan Text "
                    + "Embeddings V2): " + embeddingDimensions);
        }
        if (!decaySchedule.matches("(rate|cron)\\(.+\\)")) {
            throw new IllegalArgumentException(
                    "context decaySchedule must be rate(...) or cron(...): " + decaySchedule);
        }
        for (String origin : corsOrigins) {
            // an origin is scheme://host[:port], nothing more; a wildcard would let any site use a stolen token
            if (!origin.matches("https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?")) {
                throw new IllegalArgumentException("context corsOrigins must list origins such as "
                        + "https://console.example.com (scheme, host, optional port; no path, no wildcard): " + origin);
            }
        }
    }

    private static void range(String name, int value, int min, int max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(
                    "context " + name + " must be within " + min + ".." + max + ": " + value);
        }
    }

    public int memoryOf(String function) {
        return memoryOverrides.getOrDefault(function, memoryMb);
    }

    public int timeoutOf(String function) {
        return timeoutOverrides.getOrDefault(function, timeoutSeconds);
    }

    /** Reads the settings through {@code context} (a CDK node's {@code tryGetContext}); absent keys take defaults. */
    public static CairnSettings from(Function<String, Object> context) {
        Function<String, Optional<String>> str =
                k -> Optional.ofNullable(context.apply(k)).map(String::valueOf).filter(s -> !s.isBlank());
        Map<String, Integer> memory = new java.util.LinkedHashMap<>();
        Map<String, Integer> timeout = new java.util.LinkedHashMap<>();
        for (String f : FUNCTIONS) {
            str.apply("memory." + f).ifPresent(v -> memory.put(f, integer("memory." + f, v)));
            str.apply("timeout." + f).ifPresent(v -> timeout.put(f, integer("timeout." + f, v)));
        }
        return new CairnSettings(
                str.apply("jwtIssuer").orElse(null),
                list(context.apply("jwtAudience")),
                str.apply("cognito").map(Boolean::parseBoolean).orElse(false),
                str.apply("authPublicKey").orElse(""),
                Path.of(str.apply("functionsDir").orElse("../functions")),
                integer("memoryMb", str.apply("memoryMb").orElse("1024")),
                memory,
                integer("timeoutSeconds", str.apply("timeoutSeconds").orElse("29")),
                timeout,
                integer("logRetentionDays", str.apply("logRetentionDays").orElse("30")),
                integer("throttleRate", str.apply("throttleRate").orElse("100")),
                integer("throttleBurst", str.apply("throttleBurst").orElse("200")),
                str.apply("decaySchedule").orElse("rate(1 hour)"),
                str.apply("collectionName").orElse("cairn-memories"),
                integer("embeddingDimensions", str.apply("embeddingDimensions").orElse("1024")),
                str.apply("textModel").orElse("us.anthropic.claude-haiku-4-5-20251001-v1:0"),
                str.apply("alarmEmail").orElse(""),
                str.apply("standbyReplicas").map(Boolean::parseBoolean).orElse(true),
                list(context.apply("corsOrigins")));
    }

    private static int integer(String name, String value) {
        try {
            return Integer.parseInt(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("context " + name + " must be a whole number: " + value);
        }
    }

    /** A list from context: a JSON array in cdk.json, or a comma-separated string from {@code -c}. */
    private static List<String> list(Object value) {
        List<String> out = new ArrayList<>();
        if (value instanceof List<?> l) {
            l.forEach(v -> out.add(String.valueOf(v).trim()));
        } else if (value != null) {
            for (String s : String.valueOf(value).split(",")) {
                out.add(s.trim());
            }
        }
        out.removeIf(String::isEmpty);
        return List.copyOf(out);
    }
}
