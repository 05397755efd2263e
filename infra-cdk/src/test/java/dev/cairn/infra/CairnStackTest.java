package dev.cairn.infra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import software.amazon.awscdk.App;
import software.amazon.awscdk.Environment;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.assertions.Match;
import software.amazon.awscdk.assertions.Template;

/**
 * The synthesized template, property by property: what the deployment issue asks of the infrastructure. One stack is
 * synthesized for the class (jsii start-up costs seconds), from context like a real {@code cdk deploy -c …} with
 * overrides, and with no function build output so the placeholder package is used.
 */
class CairnStackTest {

    private static Template template;
    private static Map<String, Map<String, Object>> resources;

    @BeforeAll
    static void synth() {
        Map<String, Object> context = new HashMap<>();
        context.put("jwtIssuer", "https://auth.example.com");
        context.put("jwtAudience", "cairn-api,cairn-cli");
        context.put("functionsDir", "/nonexistent/functions");
        context.put("memoryMb", "1024");
        context.put("memory.secret-scan", "512");
        context.put("timeout.decay-job", "900");
        context.put("logRetentionDays", "14");
        context.put("throttleRate", "50");
        context.put("throttleBurst", "80");
        context.put("decaySchedule", "cron(0 3 * * ? *)");
        context.put("alarmEmail", "ops@example.com");
        App app = new App();
        CairnStack stack = new CairnStack(
                app,
                "Cairn",
                StackProps.builder()
                        .env(Environment.builder()
                                .account("123456789012")
                                .region("eu-west-1")
                                .build())
                        .build(),
                CairnSettings.from(context::get));
        template = Template.fromStack(stack);
        resources = cast(template.toJSON().get("Resources"));
    }

    @Test
    void everyRouteOfTheApi_shouldRequireTheJwtAuthorizer_andReachItsOwnersLiveAlias() {
        List<Map<String, Object>> routes = ofType("AWS::ApiGatewayV2::Route");
        assertThat(routes).hasSize(Routes.ALL.size() + Routes.MCP.size());
        Set<String> keys = new TreeSet<>();
        for (Map<String, Object> r : routes) {
            Map<String, Object> p = props(r);
            assertThat(p.get("AuthorizationType"))
                    .as("route %s", p.get("RouteKey"))
                    .isEqualTo("JWT");
            assertThat(p.get("AuthorizerId")).as("route %s", p.get("RouteKey")).isNotNull();
            keys.add((String) p.get("RouteKey"));
        }
        Set<String> expected = new TreeSet<>();
        Routes.ALL.forEach(r -> expected.add(r.method() + " " + r.path()));
        Routes.MCP.forEach(r -> expected.add(r.method() + " " + r.path()));
        assertThat(keys).isEqualTo(expected);

        // each integration targets an alias named live, never $LATEST
        for (Map<String, Object> i : ofType("AWS::ApiGatewayV2::Integration")) {
            assertThat(json(props(i).get("IntegrationUri"))).contains("Live");
        }
        // one per function: the six API functions and the MCP function
        assertThat(ofType("AWS::ApiGatewayV2::Integration")).hasSize(7);
    }

    @Test
    void theAuthorizer_shouldTrustTheIssuerAndAudiencesFromContext() {
        template.hasResourceProperties(
                "AWS::ApiGatewayV2::Authorizer",
                Map.of(
                        "AuthorizerType", "JWT",
                        "IdentitySource", List.of("$request.header.Authorization"),
                        "JwtConfiguration",
                                Map.of(
                                        "Issuer",
                                        "https://auth.example.com",
                                        "Audience",
                                        List.of("cairn-api", "cairn-cli"))));
    }

    @Test
    void theStage_shouldThrottleAtTheContextsRateAndBurst() {
        template.hasResourceProperties(
                "AWS::ApiGatewayV2::Stage",
                Map.of(
                        "StageName",
                        "$default",
                        "AutoDeploy",
                        true,
                        "DefaultRouteSettings",
                        Map.of("ThrottlingRateLimit", 50, "ThrottlingBurstLimit", 80)));
    }

    @Test
    void theTable_shouldBeOnDemand_recoverable_encrypted_expiring_andStreamToTheIndexer() {
        template.hasResourceProperties(
                "AWS::DynamoDB::Table",
                Map.of(
                        "BillingMode", "PAY_PER_REQUEST",
                        "PointInTimeRecoverySpecification", Map.of("PointInTimeRecoveryEnabled", true),
                        "SSESpecification", Map.of("SSEEnabled", true),
                        "TimeToLiveSpecification", Map.of("AttributeName", "expires_at_s", "Enabled", true),
                        "StreamSpecification", Map.of("StreamViewType", "KEYS_ONLY"),
                        "DeletionProtectionEnabled", true));
        Map<String, Object> table = props(ofType("AWS::DynamoDB::Table").get(0));
        // no local secondary index: one would cap each team's partition at 10 GB and could never be removed
        assertThat(table).doesNotContainKey("LocalSecondaryIndexes");
        List<String> indexes = new ArrayList<>();
        for (Object i : (List<?>) table.get("GlobalSecondaryIndexes")) {
            indexes.add((String) ((Map<?, ?>) i).get("IndexName"));
        }
        assertThat(indexes).containsExactlyInAnyOrderElementsOf(CairnStack.TABLE_INDEXES);
        template.hasResourceProperties(
                "AWS::Lambda::EventSourceMapping",
                Map.of(
                        "EventSourceArn", Map.of("Fn::GetAtt", List.of(logicalId("AWS::DynamoDB::Table"), "StreamArn")),
                        "FunctionResponseTypes", List.of("ReportBatchItemFailures"),
                        "BisectBatchOnFunctionError", true,
                        "DestinationConfig",
                                Map.of(
                                        "OnFailure",
                                        Map.of(
                                                "Destination",
                                                Map.of(
                                                        "Fn::GetAtt",
                                                        List.of(logicalIdStartingWith("IndexerDeadLetters"), "Arn")))),
                        "FunctionName", Match.objectLike(Map.of())));
        assertThat(json(props(ofType("AWS::Lambda::EventSourceMapping").get(0)).get("FunctionName")))
                .contains("StreamIndexerLive");
    }

    @Test
    void theBucket_shouldBePrivate_tlsOnly_encrypted_andTierColdMemoriesToGlacierInstantRetrieval() {
        template.hasResourceProperties(
                "AWS::S3::Bucket",
                Map.of(
                        "PublicAccessBlockConfiguration",
                                Map.of(
                                        "BlockPublicAcls",
                                        true,
                                        "BlockPublicPolicy",
                                        true,
                                        "IgnorePublicAcls",
                                        true,
                                        "RestrictPublicBuckets",
                                        true),
                        "BucketEncryption",
                                Map.of(
                                        "ServerSideEncryptionConfiguration",
                                        List.of(Map.of(
                                                "ServerSideEncryptionByDefault", Map.of("SSEAlgorithm", "AES256")))),
                        "VersioningConfiguration", Map.of("Status", "Enabled"),
                        "LifecycleConfiguration",
                                Match.objectLike(
                                        Map.of("TransitionDefaultMinimumObjectSize", "all_storage_classes_128K"))));
        template.hasResourceProperties(
                "AWS::S3::Bucket",
                Map.of(
                        "LifecycleConfiguration",
                        Map.of(
                                "Rules",
                                Match.arrayWith(List.of(
                                        Match.objectLike(Map.of(
                                                "Prefix",
                                                "teams/",
                                                "Status",
                                                "Enabled",
                                                "Transitions",
                                                List.of(Map.of("StorageClass", "GLACIER_IR", "TransitionInDays", 30)))),
                                        Match.objectLike(Map.of("Prefix", "tool-cache/", "ExpirationInDays", 7)),
                                        Match.objectLike(Map.of(
                                                "NoncurrentVersionExpiration",
                                                Map.of("NoncurrentDays", 30),
                                                "ExpiredObjectDeleteMarker",
                                                true)))))));
        // enforceSsl: a Deny for aws:SecureTransport=false on the bucket and its objects
        template.hasResourceProperties(
                "AWS::S3::BucketPolicy",
                Map.of(
                        "PolicyDocument",
                        Map.of(
                                "Statement",
                                Match.arrayWith(List.of(Match.objectLike(Map.of(
                                        "Effect",
                                        "Deny",
                                        "Action",
                                        "s3:*",
                                        "Condition",
                                        Map.of("Bool", Map.of("aws:SecureTransport", "false")))))))));
    }

    @Test
    void theVectorCollection_shouldBeVectorSearch_withEncryptionNetworkAndDataAccessForTheFunctionsOnly()
            throws Exception {
        template.hasResourceProperties(
                "AWS::OpenSearchServerless::Collection",
                Map.of("Name", "cairn-memories", "Type", "VECTORSEARCH", "StandbyReplicas", "ENABLED"));
        template.hasResourceProperties(
                "AWS::OpenSearchServerless::SecurityPolicy",
                Map.of(
                        "Type",
                        "encryption",
                        "Policy",
                        Match.stringLikeRegexp(".*collection/cairn-memories.*AWSOwnedKey.*")));
        template.hasResourceProperties(
                "AWS::OpenSearchServerless::SecurityPolicy",
                Map.of("Type", "network", "Policy", Match.stringLikeRegexp(".*collection/cairn-memories.*")));
        // the collection waits for its encryption policy (creation fails without one)
        Map<String, Object> collection = resources.get(logicalId("AWS::OpenSearchServerless::Collection"));
        assertThat(json(collection.get("DependsOn"))).contains("CollectionEncryption");

        String policy = json(
                props(ofType("AWS::OpenSearchServerless::AccessPolicy").get(0)).get("Policy"));
        for (String f : List.of("Recall", "SessionSummarize", "FactExtract", "TeamSync", "DecayJob", "StreamIndexer")) {
            assertThat(policy).contains(f + "Role");
        }
        assertThat(policy).doesNotContain("SecretScanRole").doesNotContain("\\\"*\\\"");
    }

    @Test
    void everyFunction_shouldRunJava21OnArm64_withSnapStartBehindALiveAlias_andContextsMemoryAndTimeout() {
        List<Map<String, Object>> functions = ofType("AWS::Lambda::Function");
        assertThat(functions).hasSize(8);
        for (Map<String, Object> f : functions) {
            Map<String, Object> p = props(f);
            assertThat(p.get("Runtime")).isEqualTo("java21");
            assertThat(p.get("Architectures")).isEqualTo(List.of("arm64"));
            assertThat(p.get("SnapStart")).isEqualTo(Map.of("ApplyOn", "PublishedVersions"));
            assertThat(p.get("LoggingConfig")).isNotNull();
        }
        assertThat(ofType("AWS::Lambda::Alias"))
                .hasSize(8)
                .allSatisfy(a -> assertThat(props(a).get("Name")).isEqualTo("live"));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "FunctionName",
                        "cairn-secret-scan",
                        "MemorySize",
                        512,
                        "Timeout",
                        29,
                        "Handler",
                        QuarkusFunction.QUARKUS_HANDLER));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "FunctionName",
                        "cairn-decay-job",
                        "MemorySize",
                        1024,
                        "Timeout",
                        900,
                        "Handler",
                        CairnStack.DECAY_HANDLER));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of("FunctionName", "cairn-stream-indexer", "Handler", CairnStack.INDEXER_HANDLER));
        // one per function, and the API's access log
        template.resourceCountIs("AWS::Logs::LogGroup", 9);
        template.allResourcesProperties("AWS::Logs::LogGroup", Map.of("RetentionInDays", 14));
    }

    @Test
    void theMcpFunction_shouldAnswerSlashMcpBehindTheJwtAuthorizer_statelessly_withTheRightsItsToolsUse() {
        // POST (messages), GET (the server's stream) and DELETE (end of session) on /mcp, each behind the authorizer
        for (String method : List.of("POST", "GET", "DELETE")) {
            template.hasResourceProperties(
                    "AWS::ApiGatewayV2::Route",
                    Map.of(
                            "RouteKey",
                            method + " /mcp",
                            "AuthorizationType",
                            "JWT",
                            "AuthorizerId",
                            Map.of("Ref", logicalId("AWS::ApiGatewayV2::Authorizer"))));
        }
        // and they reach the MCP function's live alias, no other
        Map<String, Object> mcpRoute = ofType("AWS::ApiGatewayV2::Route").stream()
                .filter(r -> "POST /mcp".equals(props(r).get("RouteKey")))
                .findFirst()
                .orElseThrow();
        assertThat(json(props(mcpRoute).get("Target"))).contains("McpIntegration");
        assertThat(ofType("AWS::ApiGatewayV2::Integration"))
                .anySatisfy(
                        i -> assertThat(json(props(i).get("IntegrationUri"))).contains("McpLive"));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "FunctionName",
                        "cairn-mcp",
                        "Handler",
                        QuarkusFunction.QUARKUS_HANDLER,
                        "Environment",
                        Map.of(
                                "Variables",
                                Match.objectLike(Map.of(
                                        "QUARKUS_MCP_SERVER_HTTP_STREAMABLE_DUMMY_INIT",
                                        "true",
                                        "CAIRN_BACKEND_RECORD_STORE",
                                        "dynamodb",
                                        "CAIRN_AUTH_ISSUER",
                                        "https://auth.example.com")))));
        // the tools reach what the API's functions reach: records, the index, embeddings, the tool-result cache
        assertThat(actionsOf("Mcp"))
                .contains(
                        "dynamodb:GetItem",
                        "dynamodb:PutItem",
                        "aoss:APIAccessAll",
                        "bedrock:InvokeModel",
                        "s3:GetObject",
                        "s3:PutObject")
                .doesNotContain("s3:ListBucket", "dynamodb:GetRecords");
        assertThat(json(statementsOf("Mcp"))).contains("/tool-cache/*").doesNotContain("/teams/*");
    }

    @Test
    void theFunctionsEnvironment_shouldMapToTheirConfigProperties() {
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "FunctionName",
                        "cairn-recall",
                        "Environment",
                        Map.of(
                                "Variables",
                                Match.objectLike(Map.of(
                                        "CAIRN_BACKEND_RECORD_STORE", "dynamodb",
                                        "CAIRN_BACKEND_VECTOR_INDEX", "opensearch",
                                        "CAIRN_BACKEND_EMBEDDER", "bedrock",
                                        "CAIRN_AWS_REGION", "eu-west-1",
                                        "CAIRN_AWS_DYNAMODB_TABLE", Map.of("Ref", logicalId("AWS::DynamoDB::Table")),
                                        "CAIRN_AWS_OPENSEARCH_SIGNING", "aoss",
                                        "CAIRN_AWS_OPENSEARCH_DOCUMENT_IDS", "generated",
                                        "CAIRN_INDEXER_POLL", "false",
                                        "CAIRN_AUTH_ISSUER", "https://auth.example.com",
                                        "CAIRN_AUTH_PUBLIC_KEY_LOCATION",
                                                "https://auth.example.com/.well-known/jwks.json")))));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "FunctionName",
                        "cairn-decay-job",
                        "Environment",
                        Map.of("Variables", Match.objectLike(Map.of("CAIRN_DECAY_MAX_RUN", "20s")))));
    }

    @Test
    void theDecaySchedule_shouldUseTheContextsExpression_andRetryIntoADeadLetterQueue() {
        template.hasResourceProperties(
                "AWS::Events::Rule",
                Map.of(
                        "ScheduleExpression",
                        "cron(0 3 * * ? *)",
                        "State",
                        "ENABLED",
                        "Targets",
                        List.of(Match.objectLike(Map.of(
                                "Input", "{\"cairn\":\"decay-schedule\"}",
                                "RetryPolicy", Map.of("MaximumRetryAttempts", 2, "MaximumEventAgeInSeconds", 3600),
                                "DeadLetterConfig",
                                        Map.of(
                                                "Arn",
                                                Map.of(
                                                        "Fn::GetAtt",
                                                        List.of(
                                                                logicalIdStartingWith("DecayDeadLetters"),
                                                                "Arn"))))))));
        Map<String, Object> rule = props(ofType("AWS::Events::Rule").get(0));
        assertThat(json(rule.get("Targets"))).contains("DecayJobLive");
    }

    @Test
    void errorsThrottlesAndDeadLetters_shouldRaiseAlarmsToTheTopic() {
        for (String f : CairnSettings.FUNCTIONS) {
            for (String m : List.of("errors", "throttles")) {
                template.hasResourceProperties(
                        "AWS::CloudWatch::Alarm",
                        Map.of(
                                "AlarmName",
                                "cairn-" + f + "-" + m,
                                "Threshold",
                                1,
                                "AlarmActions",
                                List.of(Map.of("Ref", logicalId("AWS::SNS::Topic")))));
            }
        }
        template.hasResourceProperties(
                "AWS::CloudWatch::Alarm",
                Map.of("AlarmName", "cairn-decay-dlq-not-empty", "MetricName", "ApproximateNumberOfMessagesVisible"));
        template.hasResourceProperties("AWS::CloudWatch::Alarm", Map.of("AlarmName", "cairn-indexer-dlq-not-empty"));
        template.hasResourceProperties(
                "AWS::SNS::Subscription", Map.of("Protocol", "email", "Endpoint", "ops@example.com"));
        template.hasResourceProperties(
                "AWS::Lambda::Function",
                Map.of(
                        "FunctionName",
                        "cairn-decay-job",
                        "DeadLetterConfig",
                        Map.of(
                                "TargetArn",
                                Map.of("Fn::GetAtt", List.of(logicalIdStartingWith("DecayDeadLetters"), "Arn")))));
    }

    @Test
    void eachRole_shouldHoldExactlyTheActionsItsCodeUses() {
        assertThat(actionsOf("SecretScan")).containsExactlyInAnyOrder("logs:CreateLogStream", "logs:PutLogEvents");
        assertThat(actionsOf("Recall"))
                .containsExactlyInAnyOrder(
                        "logs:CreateLogStream",
                        "logs:PutLogEvents",
                        "dynamodb:GetItem",
                        "dynamodb:BatchGetItem",
                        "dynamodb:Query",
                        "dynamodb:PutItem",
                        "dynamodb:UpdateItem",
                        "dynamodb:DeleteItem",
                        "aoss:APIAccessAll",
                        "bedrock:InvokeModel");
        assertThat(actionsOf("SessionSummarize"))
                .contains("s3:GetObject", "s3:PutObject", "s3:DeleteObject", "bedrock:InvokeModel")
                .doesNotContain("s3:ListBucket");
        // the cold bucket is versioned: a dropped copy is deleted version by version, found by listing its versions
        assertThat(actionsOf("DecayJob"))
                .contains(
                        "s3:GetObject",
                        "s3:PutObject",
                        "s3:DeleteObjectVersion",
                        "s3:ListBucket",
                        "s3:ListBucketVersions",
                        "sqs:SendMessage")
                .doesNotContain("s3:DeleteObject");
        assertThat(actionsOf("TeamSync")).noneMatch(a -> a.startsWith("s3:"));
        // the tombstone purge needs DeleteItem, a deleted memory's cold copy DeleteObjectVersion and ListBucketVersions
        // (every version of it goes); nothing writes new items
        assertThat(actionsOf("StreamIndexer"))
                .contains(
                        "dynamodb:GetRecords",
                        "dynamodb:GetShardIterator",
                        "dynamodb:DescribeStream",
                        "dynamodb:GetItem",
                        "dynamodb:UpdateItem",
                        "dynamodb:DeleteItem",
                        "s3:DeleteObjectVersion",
                        "s3:ListBucketVersions")
                .doesNotContain(
                        "dynamodb:PutItem",
                        "dynamodb:Query",
                        "dynamodb:BatchWriteItem",
                        "s3:GetObject",
                        "s3:PutObject",
                        "s3:DeleteObject");
        assertThat(json(statementsOf("StreamIndexer"))).contains("/teams/*").doesNotContain("/tool-cache/*");
        for (String f : List.of("Recall", "SessionSummarize", "FactExtract", "TeamSync", "DecayJob")) {
            assertThat(actionsOf(f)).doesNotContain("dynamodb:BatchWriteItem", "dynamodb:ConditionCheckItem");
        }
        // S3 object rights stop at the function's prefix
        assertThat(json(statementsOf("SessionSummarize")))
                .contains("/tool-cache/*")
                .doesNotContain("/teams/*");
        assertThat(json(statementsOf("DecayJob"))).contains("/teams/*").doesNotContain("/tool-cache/*");
        // no role carries an AWS managed policy (AWSLambdaBasicExecutionRole allows logs on every resource)
        for (Map<String, Object> role : ofType("AWS::IAM::Role")) {
            assertThat(props(role)).doesNotContainKey("ManagedPolicyArns");
        }
    }

    @Test
    void noStatement_shouldUseAWildcardActionOrResourceForDynamoDbOrS3() {
        for (Map<String, Object> policy : ofType("AWS::IAM::Policy")) {
            for (Object s : (List<?>) ((Map<?, ?>) props(policy).get("PolicyDocument")).get("Statement")) {
                Map<?, ?> st = (Map<?, ?>) s;
                List<String> actions = strings(st.get("Action"));
                assertThat(actions).noneMatch(a -> a.equals("*") || a.endsWith(":*"));
                if (actions.stream().anyMatch(a -> a.startsWith("dynamodb:") || a.startsWith("s3:"))) {
                    for (Object r : asList(st.get("Resource"))) {
                        String resource = json(r);
                        assertThat(resource).isNotEqualTo("\"*\"");
                        if (actions.stream().anyMatch(a -> a.startsWith("dynamodb:"))) {
                            assertThat(resource).as("DynamoDB resource").doesNotContain("*");
                        }
                        if (actions.stream().anyMatch(a -> a.startsWith("s3:"))) {
                            assertThat(resource).as("S3 resource").matches(".*/(teams|tool-cache)/\\*.*|[^*]*");
                        }
                    }
                }
            }
        }
    }

    @Test
    void theStreamIndexer_shouldBeInvokedForMemoryItemsOnly_andAlarmWhenItFallsBehind() {
        List<Map<String, Object>> mappings = ofType("AWS::Lambda::EventSourceMapping");
        assertThat(mappings).hasSize(1);
        Map<String, Object> filter = cast(props(mappings.get(0)).get("FilterCriteria"));
        List<?> filters = (List<?>) filter.get("Filters");
        assertThat(filters).hasSize(1);
        // Lambda's filter pattern is a JSON string: key prefixes of memory items only
        Map<String, Object> pattern = parse((String) ((Map<?, ?>) filters.get(0)).get("Pattern"));
        assertThat(pattern)
                .isEqualTo(Map.of(
                        "dynamodb",
                        Map.of(
                                "Keys",
                                Map.of(
                                        "pk", Map.of("S", List.of(Map.of("prefix", "T#"))),
                                        "sk", Map.of("S", List.of(Map.of("prefix", "M#")))))));

        template.hasResourceProperties(
                "AWS::CloudWatch::Alarm",
                Map.of(
                        "AlarmName",
                        "cairn-stream-indexer-iterator-age",
                        "MetricName",
                        "IteratorAge",
                        "Namespace",
                        "AWS/Lambda",
                        "Statistic",
                        "Maximum",
                        "Threshold",
                        CairnStack.ITERATOR_AGE_ALARM_MS,
                        "ComparisonOperator",
                        "GreaterThanOrEqualToThreshold"));
        String alarm = json(ofType("AWS::CloudWatch::Alarm").stream()
                .filter(a -> "cairn-stream-indexer-iterator-age".equals(props(a).get("AlarmName")))
                .findFirst()
                .orElseThrow());
        assertThat(alarm).contains("AlarmActions").contains("StreamIndexer");
    }

    @Test
    void aDeletedColdCopysOldVersion_shouldExpireAfterADay() {
        String rules = json(props(ofType("AWS::S3::Bucket").get(0)).get("LifecycleConfiguration"));
        assertThat(rules)
                .contains("\"Id\":\"deleted-cold-copies-expiry\"")
                .contains("\"Prefix\":\"teams/\"")
                .contains("\"NoncurrentDays\":1");
    }

    @Test
    void theApiStage_shouldWriteAccessLogs_withoutHeadersOrBodies() {
        Map<String, Object> stage = props(ofType("AWS::ApiGatewayV2::Stage").get(0));
        Map<String, Object> logs = cast(stage.get("AccessLogSettings"));
        assertThat(json(logs.get("DestinationArn"))).contains("ApiAccessLogs");
        Map<String, Object> format = parse((String) logs.get("Format"));
        assertThat(format).containsKeys("requestId", "routeKey", "status", "integrationLatency", "sub");
        assertThat(format.toString()).doesNotContain("header").doesNotContain("body");
        template.hasResourceProperties(
                "AWS::Logs::LogGroup", Map.of("LogGroupName", "/aws/apigateway/cairn-access", "RetentionInDays", 14));
    }

    @Test
    void anApiFunctionTimeoutOverApiGatewaysLimit_shouldFailSynth_naming30s() {
        assertThatThrownBy(() -> CairnSettings.from(Map.<String, Object>of(
                        "jwtIssuer", "https://x", "jwtAudience", "a", "timeout.fact-extract", "120")::get))
                .hasMessageContaining("timeout.fact-extract")
                .hasMessageContaining("30 s");
        assertThatThrownBy(() -> CairnSettings.from(Map.<String, Object>of(
                        "jwtIssuer", "https://x", "jwtAudience", "a", "timeoutSeconds", "60")::get))
                .hasMessageContaining("timeout.recall");
        // the schedule's function and the indexer may run longer
        CairnSettings ok = CairnSettings.from(Map.<String, Object>of(
                "jwtIssuer",
                "https://x",
                "jwtAudience",
                "a",
                "timeout.decay-job",
                "900",
                "timeout.stream-indexer",
                "120")::get);
        assertThat(ok.timeoutOf("fact-extract")).isEqualTo(29);
        assertThat(ok.timeoutOf("stream-indexer")).isEqualTo(120);
    }

    @Test
    void aMissingIssuerOrAnOddValue_shouldFailSynthWithASentenceNamingTheKey() {
        assertThatThrownBy(() -> CairnSettings.from(Map.<String, Object>of("jwtAudience", "a")::get))
                .hasMessageContaining("jwtIssuer");
        assertThatThrownBy(() -> CairnSettings.from(Map.<String, Object>of(
                        "jwtIssuer", "https://x", "jwtAudience", "a", "logRetentionDays", "10")::get))
                .hasMessageContaining("logRetentionDays");
        assertThatThrownBy(() -> CairnSettings.from(Map.<String, Object>of(
                        "jwtIssuer", "https://x", "jwtAudience", "a", "collectionName", "Cairn_Memories")::get))
                .hasMessageContaining("collectionName");
        assertThatThrownBy(() -> CairnSettings.from(Map.<String, Object>of(
                        "jwtIssuer", "https://x", "jwtAudience", "a", "memory.recall", "lots")::get))
                .hasMessageContaining("memory.recall");
    }

    @Test
    void withCognito_theStackShouldCreateAUserPool_andTrustItsIssuerAndClient() {
        App app = new App();
        CairnStack stack = new CairnStack(
                app,
                "CairnCognito",
                StackProps.builder()
                        .env(Environment.builder()
                                .account("123456789012")
                                .region("eu-west-1")
                                .build())
                        .build(),
                CairnSettings.from(Map.<String, Object>of("cognito", "true", "functionsDir", "/nonexistent")::get));
        Template t = Template.fromStack(stack);
        t.resourceCountIs("AWS::Cognito::UserPool", 1);
        t.resourceCountIs("AWS::Cognito::UserPoolClient", 1);
        String authorizer = json(t.findResources("AWS::ApiGatewayV2::Authorizer"));
        assertThat(authorizer)
                .contains("https://cognito-idp.eu-west-1.amazonaws.com/")
                .contains("UsersAgents");
    }

    // --- template helpers

    private static List<String> actionsOf(String function) {
        List<String> actions = new ArrayList<>();
        for (Object s : statementsOf(function)) {
            actions.addAll(strings(((Map<?, ?>) s).get("Action")));
        }
        return actions;
    }

    private static List<Object> statementsOf(String function) {
        List<Object> out = new ArrayList<>();
        resources.forEach((id, r) -> {
            if (r.get("Type").equals("AWS::IAM::Policy") && id.startsWith(function + "Role")) {
                out.addAll((List<?>) ((Map<?, ?>) props(r).get("PolicyDocument")).get("Statement"));
            }
        });
        assertThat(out).as("statements of %s", function).isNotEmpty();
        return out;
    }

    private static List<?> asList(Object o) {
        return o instanceof List<?> l ? l : List.of(o);
    }

    private static List<String> strings(Object o) {
        List<String> out = new ArrayList<>();
        if (o instanceof List<?> l) {
            l.forEach(v -> out.add(String.valueOf(v)));
        } else {
            out.add(String.valueOf(o));
        }
        return out;
    }

    private static List<Map<String, Object>> ofType(String type) {
        return resources.values().stream()
                .filter(r -> type.equals(r.get("Type")))
                .toList();
    }

    private static String logicalId(String type) {
        return resources.entrySet().stream()
                .filter(e -> type.equals(e.getValue().get("Type")))
                .findFirst()
                .orElseThrow()
                .getKey();
    }

    private static String logicalIdStartingWith(String prefix) {
        return resources.keySet().stream()
                .filter(k -> k.startsWith(prefix))
                .filter(k -> !k.contains("Alarm") && !k.contains("Policy"))
                .findFirst()
                .orElseThrow();
    }

    private static Map<String, Object> props(Map<String, Object> resource) {
        return cast(resource.get("Properties"));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parse(String json) {
        try {
            return new ObjectMapper().readValue(json, new com.fasterxml.jackson.core.type.TypeReference<>() {});
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static <T> T cast(Object o) {
        return (T) o;
    }

    private static String json(Object o) {
        try {
            return new ObjectMapper().writeValueAsString(o);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
