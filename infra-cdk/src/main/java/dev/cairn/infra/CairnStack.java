package dev.cairn.infra;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awscdk.CfnOutput;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.Stack;
import software.amazon.awscdk.StackProps;
import software.amazon.awscdk.aws_apigatewayv2_authorizers.HttpJwtAuthorizer;
import software.amazon.awscdk.aws_apigatewayv2_integrations.HttpLambdaIntegration;
import software.amazon.awscdk.services.apigatewayv2.AddRoutesOptions;
import software.amazon.awscdk.services.apigatewayv2.CfnStage;
import software.amazon.awscdk.services.apigatewayv2.CorsHttpMethod;
import software.amazon.awscdk.services.apigatewayv2.CorsPreflightOptions;
import software.amazon.awscdk.services.apigatewayv2.HttpApi;
import software.amazon.awscdk.services.apigatewayv2.HttpMethod;
import software.amazon.awscdk.services.apigatewayv2.HttpStage;
import software.amazon.awscdk.services.apigatewayv2.ThrottleSettings;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IAlarmAction;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.cloudwatch.actions.SnsAction;
import software.amazon.awscdk.services.cognito.PasswordPolicy;
import software.amazon.awscdk.services.cognito.UserPool;
import software.amazon.awscdk.services.cognito.UserPoolClient;
import software.amazon.awscdk.services.cognito.UserPoolClientOptions;
import software.amazon.awscdk.services.dynamodb.Attribute;
import software.amazon.awscdk.services.dynamodb.AttributeType;
import software.amazon.awscdk.services.dynamodb.BillingMode;
import software.amazon.awscdk.services.dynamodb.GlobalSecondaryIndexProps;
import software.amazon.awscdk.services.dynamodb.PointInTimeRecoverySpecification;
import software.amazon.awscdk.services.dynamodb.ProjectionType;
import software.amazon.awscdk.services.dynamodb.StreamViewType;
import software.amazon.awscdk.services.dynamodb.Table;
import software.amazon.awscdk.services.dynamodb.TableEncryption;
import software.amazon.awscdk.services.events.Rule;
import software.amazon.awscdk.services.events.RuleTargetInput;
import software.amazon.awscdk.services.events.Schedule;
import software.amazon.awscdk.services.events.targets.LambdaFunction;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.EventSourceMapping;
import software.amazon.awscdk.services.lambda.FilterCriteria;
import software.amazon.awscdk.services.lambda.FilterRule;
import software.amazon.awscdk.services.lambda.StartingPosition;
import software.amazon.awscdk.services.lambda.eventsources.SqsDlq;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.opensearchserverless.CfnAccessPolicy;
import software.amazon.awscdk.services.opensearchserverless.CfnCollection;
import software.amazon.awscdk.services.opensearchserverless.CfnSecurityPolicy;
import software.amazon.awscdk.services.s3.BlockPublicAccess;
import software.amazon.awscdk.services.s3.Bucket;
import software.amazon.awscdk.services.s3.BucketEncryption;
import software.amazon.awscdk.services.s3.LifecycleRule;
import software.amazon.awscdk.services.s3.StorageClass;
import software.amazon.awscdk.services.s3.Transition;
import software.amazon.awscdk.services.s3.TransitionDefaultMinimumObjectSize;
import software.amazon.awscdk.services.sns.Topic;
import software.amazon.awscdk.services.sns.subscriptions.EmailSubscription;
import software.amazon.awscdk.services.sqs.Queue;
import software.amazon.awscdk.services.sqs.QueueEncryption;
import software.constructs.Construct;

/**
 * Cairn in one account and region. Data: one DynamoDB table (memories, sessions, tool cache, sync log — the item
 * layouts of the AWS adapters), one S3 bucket (cold memories under {@code teams/}, large tool results under
 * {@code tool-cache/}), one OpenSearch Serverless vector collection. Compute: the five API functions, the decay job
 * (also on a schedule) and the DynamoDB Streams indexer, each with only the permissions its code uses. Entry: one
 * HTTP API, a JWT authorizer on every route, stage throttling.
 */
public final class CairnStack extends Stack {

    public static final String TABLE_NAME = "cairn-memories";
    /**
     * The adapters' index names (DynamoDbMemoryStore); the table's secondary indexes must match them
     * ({@code TableDefinitionCrossCheckTest} in integration-tests compares the table with the adapters' definition).
     */
    static final List<String> TABLE_INDEXES = List.of("by_importance", "by_recency", "pending_index");

    public static final String TTL_ATTRIBUTE = "expires_at_s";
    public static final String COLD_PREFIX = "teams/";
    public static final String TOOL_CACHE_PREFIX = "tool-cache/";
    public static final String DECAY_HANDLER = "dev.cairn.decay.DecayLambda::handleRequest";
    /** The model BedrockTitanEmbedder calls. */
    public static final String EMBEDDING_MODEL = "amazon.titan-embed-text-v2:0";
    /** The stream indexer is a Quarkus function of its own (functions/stream-indexer), behind Quarkus' handler. */
    public static final String INDEXER_HANDLER = QuarkusFunction.QUARKUS_HANDLER;

    /**
     * Record-store actions the API functions' adapters call (reads, conditional writes, queries) — never a scan, a
     * batch write or an admin action; integration-tests' IamActionsCrossCheckTest derives the set from the adapters'
     * bytecode and fails when the two differ.
     */
    public static final List<String> TABLE_READ_WRITE = List.of(
            "dynamodb:GetItem",
            "dynamodb:BatchGetItem",
            "dynamodb:Query",
            "dynamodb:PutItem",
            "dynamodb:UpdateItem",
            "dynamodb:DeleteItem");

    /**
     * What the stream indexer's path calls on the table: the strongly consistent read of the changed item
     * ({@code indexWork}, {@code get}), the pending mark's update and the tombstone's purge ({@code markIndexed}).
     */
    public static final List<String> INDEXER_TABLE =
            List.of("dynamodb:GetItem", "dynamodb:UpdateItem", "dynamodb:DeleteItem");

    /**
     * S3 object actions on the cold prefix: the decay job writes, reads and drops copies; the indexer drops them. The
     * bucket is versioned, so a copy is dropped version by version ({@code S3ColdStore.delete} names each version id,
     * which needs {@code s3:DeleteObjectVersion}, never plain {@code s3:DeleteObject}): a plain delete would leave
     * the deleted memory's text in its noncurrent versions.
     */
    public static final List<String> COLD_DECAY = List.of("s3:GetObject", "s3:PutObject", "s3:DeleteObjectVersion");

    public static final List<String> COLD_INDEXER = List.of("s3:DeleteObjectVersion");

    /** Listing a cold copy's versions (decay-job, stream-indexer), a bucket action narrowed by a prefix condition. */
    public static final String COLD_LIST_VERSIONS = "s3:ListBucketVersions";

    /** S3 object actions on the tool-cache prefix: session-summarize's large results. */
    public static final List<String> TOOL_CACHE_OBJECTS = List.of("s3:GetObject", "s3:PutObject", "s3:DeleteObject");

    /** Listing the cold prefix (decay-job), a bucket action narrowed by a prefix condition. */
    public static final String COLD_LIST = "s3:ListBucket";

    static final List<String> TABLE_STREAM_READ = List.of(
            "dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator", "dynamodb:ListStreams");
    static final List<String> COLLECTION_DATA = List.of("aoss:APIAccessAll");

    private final Table table;
    private final Bucket bucket;
    private final CfnCollection collection;
    private final HttpApi api;
    private final Map<String, QuarkusFunction> functions = new LinkedHashMap<>();
    private final Trust trust;

    public CairnStack(Construct scope, String id, StackProps props, CairnSettings settings) {
        super(scope, id, props);

        this.table = table();
        this.bucket = bucket();
        this.collection = collection(settings);
        this.trust = trust(settings);

        Topic alarms = Topic.Builder.create(this, "Alarms")
                .displayName("Cairn alarms")
                .enforceSsl(true)
                .build();
        if (!settings.alarmEmail().isBlank()) {
            alarms.addSubscription(new EmailSubscription(settings.alarmEmail()));
        }
        IAlarmAction alarmAction = new SnsAction(alarms);

        Queue decayDlq = deadLetterQueue("DecayDeadLetters", "cairn-decay-dlq", alarmAction);
        Queue indexerDlq = deadLetterQueue("IndexerDeadLetters", "cairn-indexer-dlq", alarmAction);

        Map<String, String> common = environment(settings);
        for (String name : List.of("recall", "session-summarize", "fact-extract", "team-sync", "secret-scan", "mcp")) {
            functions.put(name, function(settings, name, QuarkusFunction.QUARKUS_HANDLER, common, null, alarmAction));
        }
        functions.put("decay-job", function(settings, "decay-job", DECAY_HANDLER, common, decayDlq, alarmAction));
        functions.put(
                "stream-indexer", function(settings, "stream-indexer", INDEXER_HANDLER, common, null, alarmAction));

        grants(settings);
        streamIndexer(indexerDlq, alarmAction);
        decaySchedule(settings, decayDlq);
        dataAccess();
        this.api = api(settings);

        CfnOutput.Builder.create(this, "ApiUrl").value(api.getApiEndpoint()).build();
        CfnOutput.Builder.create(this, "TableName").value(table.getTableName()).build();
        CfnOutput.Builder.create(this, "BucketName")
                .value(bucket.getBucketName())
                .build();
        CfnOutput.Builder.create(this, "CollectionEndpoint")
                .value(collection.getAttrCollectionEndpoint())
                .build();
    }

    /** On-demand, point-in-time recovery, encrypted, TTL for expiring tool-cache entries, key-only stream. */
    private Table table() {
        Table t = Table.Builder.create(this, "Table")
                .tableName(TABLE_NAME)
                .partitionKey(Attribute.builder()
                        .name("pk")
                        .type(AttributeType.STRING)
                        .build())
                .sortKey(Attribute.builder()
                        .name("sk")
                        .type(AttributeType.STRING)
                        .build())
                .billingMode(BillingMode.PAY_PER_REQUEST)
                .pointInTimeRecoverySpecification(PointInTimeRecoverySpecification.builder()
                        .pointInTimeRecoveryEnabled(true)
                        .build())
                .encryption(TableEncryption.AWS_MANAGED)
                .timeToLiveAttribute(TTL_ATTRIBUTE)
                // the indexer reads the current item itself (it must see the newest version anyway), so keys suffice
                .stream(StreamViewType.KEYS_ONLY)
                .deletionProtection(true)
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        // The listing orders are global indexes on the memories' partition key: a local index would cap each team's
        // partition at 10 GB for good (and could never be removed); a global one has no size ceiling.
        for (String[] order : new String[][] {{"by_importance", "imp_key"}, {"by_recency", "rec_key"}}) {
            t.addGlobalSecondaryIndex(GlobalSecondaryIndexProps.builder()
                    .indexName(order[0])
                    .partitionKey(Attribute.builder()
                            .name("pk")
                            .type(AttributeType.STRING)
                            .build())
                    .sortKey(Attribute.builder()
                            .name(order[1])
                            .type(AttributeType.STRING)
                            .build())
                    .projectionType(ProjectionType.ALL)
                    .build());
        }
        t.addGlobalSecondaryIndex(GlobalSecondaryIndexProps.builder()
                .indexName("pending_index")
                .partitionKey(Attribute.builder()
                        .name("pending")
                        .type(AttributeType.STRING)
                        .build())
                .sortKey(Attribute.builder()
                        .name("sk")
                        .type(AttributeType.STRING)
                        .build())
                .projectionType(ProjectionType.KEYS_ONLY)
                .build());
        return t;
    }

    /**
     * Private, TLS only, S3-managed encryption, versioned (an overwritten or deleted cold copy can be recovered for
     * 30 days). Cold memories move to Glacier Instant Retrieval after 30 days — read in milliseconds when restored, at
     * about a sixth of Standard's storage price — but only objects of 128 KiB and more: Glacier IR bills every object
     * as at least 128 KiB and each transition costs a request, so a typical 1 KiB cold copy is cheaper left in
     * Standard (README, cost sketch). Large tool results are transient and expire after 7 days.
     */
    private Bucket bucket() {
        Bucket b = Bucket.Builder.create(this, "Bucket")
                .blockPublicAccess(BlockPublicAccess.BLOCK_ALL)
                .enforceSsl(true)
                .encryption(BucketEncryption.S3_MANAGED)
                .versioned(true)
                .transitionDefaultMinimumObjectSize(TransitionDefaultMinimumObjectSize.ALL_STORAGE_CLASSES_128_K)
                .removalPolicy(RemovalPolicy.RETAIN)
                .lifecycleRules(List.of(
                        LifecycleRule.builder()
                                .id("cold-memories-to-glacier-ir")
                                .prefix(COLD_PREFIX)
                                .transitions(List.of(Transition.builder()
                                        .storageClass(StorageClass.GLACIER_INSTANT_RETRIEVAL)
                                        .transitionAfter(Duration.days(30))
                                        .build()))
                                .build(),
                        LifecycleRule.builder()
                                // the bucket is versioned: a deleted memory's cold copy lives on as a noncurrent
                                // version, so those go after a day, not the bucket-wide 30 (README § Deletes cascade)
                                .id("deleted-cold-copies-expiry")
                                .prefix(COLD_PREFIX)
                                .noncurrentVersionExpiration(Duration.days(1))
                                .build(),
                        LifecycleRule.builder()
                                .id("tool-cache-expiry")
                                .prefix(TOOL_CACHE_PREFIX)
                                .expiration(Duration.days(7))
                                .build(),
                        LifecycleRule.builder()
                                .id("deleted-versions-expiry")
                                .noncurrentVersionExpiration(Duration.days(30))
                                .expiredObjectDeleteMarker(true)
                                .abortIncompleteMultipartUploadAfter(Duration.days(1))
                                .build()))
                .build();
        Nag.suppress(
                b,
                "AwsSolutions-S1",
                "only the functions' roles read or write it, each on its own prefix; object-level access is recorded"
                        + " by CloudTrail data events where the account enables them, and a log bucket would itself"
                        + " be an unlogged bucket");
        return b;
    }

    /**
     * VECTORSEARCH collection with an AWS-owned-key encryption policy (it must exist before the collection) and a
     * network policy. The endpoint is public but every request is SigV4-signed and the data-access policy
     * ({@link #dataAccess()}) names only the functions' roles.
     */
    private CfnCollection collection(CairnSettings settings) {
        String name = settings.collectionName();
        String resource = "[\"collection/" + name + "\"]";
        CfnSecurityPolicy encryption = CfnSecurityPolicy.Builder.create(this, "CollectionEncryption")
                .name(name + "-enc")
                .type("encryption")
                .policy("{\"Rules\":[{\"ResourceType\":\"collection\",\"Resource\":" + resource + "}],"
                        + "\"AWSOwnedKey\":true}")
                .build();
        CfnSecurityPolicy network = CfnSecurityPolicy.Builder.create(this, "CollectionNetwork")
                .name(name + "-net")
                .type("network")
                .policy("[{\"Rules\":[{\"ResourceType\":\"collection\",\"Resource\":" + resource + "}],"
                        + "\"AllowFromPublic\":true}]")
                .build();
        CfnCollection c = CfnCollection.Builder.create(this, "Collection")
                .name(name)
                .type("VECTORSEARCH")
                .standbyReplicas(settings.standbyReplicas() ? "ENABLED" : "DISABLED")
                .description("Cairn memory vectors")
                .build();
        c.addResourceDependency(encryption);
        c.addResourceDependency(network);
        return c;
    }

    /** Functions that touch the vector index, and only them, may read and write its documents. */
    private void dataAccess() {
        String name = collection.getName();
        List<String> principals = new ArrayList<>();
        for (String f : List.of(
                "recall", "session-summarize", "fact-extract", "team-sync", "decay-job", "stream-indexer", "mcp")) {
            principals.add("\"" + functions.get(f).role().getRoleArn() + "\"");
        }
        String policy = "[{\"Rules\":["
                + "{\"ResourceType\":\"index\",\"Resource\":[\"index/" + name + "/*\"],\"Permission\":["
                + "\"aoss:CreateIndex\",\"aoss:DescribeIndex\",\"aoss:UpdateIndex\",\"aoss:ReadDocument\","
                + "\"aoss:WriteDocument\"]},"
                + "{\"ResourceType\":\"collection\",\"Resource\":[\"collection/" + name + "\"],\"Permission\":["
                + "\"aoss:DescribeCollectionItems\"]}],"
                + "\"Principal\":[" + String.join(",", principals) + "]}]";
        CfnAccessPolicy.Builder.create(this, "CollectionAccess")
                .name(name + "-access")
                .type("data")
                .policy(policy)
                .build();
    }

    private Queue deadLetterQueue(String id, String name, IAlarmAction action) {
        Queue q = Queue.Builder.create(this, id)
                .queueName(name)
                .encryption(QueueEncryption.SQS_MANAGED)
                .enforceSsl(true)
                .retentionPeriod(Duration.days(14))
                .build();
        Alarm a = Alarm.Builder.create(this, id + "Alarm")
                .alarmName(name + "-not-empty")
                .alarmDescription(name + " holds failed work to look at")
                .metric(q.metricApproximateNumberOfMessagesVisible())
                .threshold(1)
                .evaluationPeriods(1)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
        a.addAlarmAction(action);
        Nag.suppress(
                q,
                "AwsSolutions-SQS3",
                "it is itself a dead-letter queue (of the stream's event source mapping or the decay schedule), and"
                        + " alarms when it holds anything");
        return q;
    }

    /** The function configuration every function shares, as environment variables Quarkus maps to properties. */
    private Map<String, String> environment(CairnSettings settings) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("CAIRN_BACKEND_RECORD_STORE", "dynamodb");
        env.put("CAIRN_BACKEND_VECTOR_INDEX", "opensearch");
        env.put("CAIRN_BACKEND_EMBEDDER", "bedrock");
        boolean claude = !settings.textModel().isBlank();
        env.put("CAIRN_BACKEND_SUMMARIZER", claude ? "bedrock" : "extractive");
        env.put("CAIRN_BACKEND_EXTRACTOR", claude ? "bedrock" : "rules");
        env.put("CAIRN_AWS_REGION", getRegion());
        env.put("CAIRN_AWS_DYNAMODB_TABLE", table.getTableName());
        env.put("CAIRN_AWS_S3_BUCKET", bucket.getBucketName());
        env.put("CAIRN_AWS_OPENSEARCH_URL", collection.getAttrCollectionEndpoint());
        env.put("CAIRN_AWS_OPENSEARCH_SIGNING", "aoss");
        env.put("CAIRN_AWS_OPENSEARCH_ENGINE", "faiss");
        // Serverless vector collections assign document ids themselves and have no refresh parameter
        env.put("CAIRN_AWS_OPENSEARCH_DOCUMENT_IDS", "generated");
        env.put("CAIRN_AWS_OPENSEARCH_REFRESH", "false");
        env.put("CAIRN_AWS_BEDROCK_DIMENSIONS", Integer.toString(settings.embeddingDimensions()));
        if (claude) {
            env.put("CAIRN_AWS_BEDROCK_TEXT_MODEL", settings.textModel());
        }
        env.put("CAIRN_AUTH_ISSUER", trust.issuer());
        if (!settings.authPublicKey().isBlank()) {
            env.put("CAIRN_AUTH_PUBLIC_KEY", settings.authPublicKey());
        } else {
            env.put("CAIRN_AUTH_PUBLIC_KEY_LOCATION", trust.issuer() + "/.well-known/jwks.json");
        }
        env.put("CAIRN_DATA_DIR", "/tmp/cairn-data");
        // a frozen instance cannot poll for lagging index entries: the stream indexer converges the index instead
        env.put("CAIRN_INDEXER_POLL", "false");
        // C1 only: a Lambda's short life rarely pays back C2's compile time (AWS's advice for Java functions)
        env.put("JAVA_TOOL_OPTIONS", "-XX:+TieredCompilation -XX:TieredStopAtLevel=1");
        return env;
    }

    /** The trusted issuer and audiences: from context, or a user pool and app client this stack creates. */
    private record Trust(String issuer, List<String> audience) {}

    private Trust trust(CairnSettings settings) {
        if (!settings.cognito()) {
            return new Trust(settings.jwtIssuer(), settings.jwtAudience());
        }
        UserPool pool = UserPool.Builder.create(this, "Users")
                .userPoolName("cairn-users")
                .selfSignUpEnabled(false)
                .passwordPolicy(PasswordPolicy.builder()
                        .minLength(12)
                        .requireUppercase(true)
                        .requireLowercase(true)
                        .requireDigits(true)
                        .requireSymbols(true)
                        .build())
                .removalPolicy(RemovalPolicy.RETAIN)
                .build();
        Nag.suppress(
                pool,
                "AwsSolutions-COG2",
                "the pool exists for agents' machine tokens and an operator's test users; MFA is the account owner's"
                        + " choice to switch on, not something the stack can require of agents");
        Nag.suppress(
                pool,
                "AwsSolutions-COG3",
                "threat protection (advanced security) needs Cognito's Plus feature plan, a cost the operator opts into;"
                        + " sign-in is admin-created users only (no self sign-up)");
        UserPoolClient client = pool.addClient(
                "Agents",
                UserPoolClientOptions.builder()
                        .userPoolClientName("cairn-agents")
                        .generateSecret(false)
                        .build());
        CfnOutput.Builder.create(this, "UserPoolId").value(pool.getUserPoolId()).build();
        CfnOutput.Builder.create(this, "UserPoolClientId")
                .value(client.getUserPoolClientId())
                .build();
        return new Trust(
                "https://cognito-idp." + getRegion() + ".amazonaws.com/" + pool.getUserPoolId(),
                List.of(client.getUserPoolClientId()));
    }

    /** The function built by {@code functions/<name>} ({@code target/function.zip}). */
    private QuarkusFunction function(
            CairnSettings settings,
            String name,
            String handler,
            Map<String, String> env,
            Queue dlq,
            IAlarmAction alarmAction) {
        String id = pascal(name);
        if (name.equals("mcp")) {
            env = new LinkedHashMap<>(env);
            // stateless: a request may reach an instance that never saw the client's initialize
            env.put("QUARKUS_MCP_SERVER_HTTP_STREAMABLE_DUMMY_INIT", "true");
        }
        if (name.equals("decay-job")) {
            env = new LinkedHashMap<>(env);
            // an API call must answer inside API Gateway's 30 s; a scheduled run uses the Lambda's own time left
            env.put("CAIRN_DECAY_MAX_RUN", "20s");
        }
        return new QuarkusFunction(
                this,
                id,
                new QuarkusFunction.Props(
                        name,
                        code(settings.functionsDir().resolve(name).resolve("target/function.zip")),
                        handler,
                        settings.memoryOf(name),
                        settings.timeoutOf(name),
                        settings.logRetentionDays(),
                        env,
                        dlq,
                        alarmAction));
    }

    /** The function's build output, or an empty placeholder so synth never needs a prior build. */
    private static Code code(Path zip) {
        return Code.fromAsset((Files.isRegularFile(zip) ? zip : Placeholder.zip()).toString());
    }

    /** Each function's rights: exactly the stores its code touches. */
    private void grants(CairnSettings settings) {
        List<String> tableResources = new ArrayList<>(List.of(table.getTableArn()));
        TABLE_INDEXES.forEach(i -> tableResources.add(table.getTableArn() + "/index/" + i));
        String cold = bucket.getBucketArn() + "/" + COLD_PREFIX + "*";
        String toolCache = bucket.getBucketArn() + "/" + TOOL_CACHE_PREFIX + "*";
        String embed = "arn:" + getPartition() + ":bedrock:" + getRegion() + "::foundation-model/" + EMBEDDING_MODEL;
        List<String> claude = claudeResources(settings);

        for (String f : List.of("recall", "session-summarize", "fact-extract", "team-sync", "decay-job", "mcp")) {
            functions.get(f).allow(TABLE_READ_WRITE, tableResources);
        }
        for (String f : List.of(
                "recall", "session-summarize", "fact-extract", "team-sync", "decay-job", "stream-indexer", "mcp")) {
            functions.get(f).allow(COLLECTION_DATA, List.of(collection.getAttrArn()));
            functions.get(f).allow(List.of("bedrock:InvokeModel"), List.of(embed));
        }
        if (!claude.isEmpty()) {
            for (String f : List.of("session-summarize", "fact-extract", "mcp")) {
                functions.get(f).allow(List.of("bedrock:InvokeModel"), claude);
            }
        }
        // the MCP function serves the tool-result cache too (tool_cache_lookup, tool_cache_store)
        for (String f : List.of("session-summarize", "mcp")) {
            functions.get(f).allow(TOOL_CACHE_OBJECTS, List.of(toolCache));
        }
        functions.get("decay-job").allow(COLD_DECAY, List.of(cold));
        // listing a team's cold copies: ListBucket is a bucket action, narrowed to the cold prefix by condition
        functions
                .get("decay-job")
                .role()
                .addToPolicy(PolicyStatement.Builder.create()
                        .actions(List.of(COLD_LIST, COLD_LIST_VERSIONS))
                        .resources(List.of(bucket.getBucketArn()))
                        .conditions(Map.of("StringLike", Map.of("s3:prefix", List.of(COLD_PREFIX + "*"))))
                        .build());
        // the indexer reads the changed item, clears its pending mark or purges its tombstone, and drops the cold copy
        // of a deleted memory (the API functions that delete carry no S3: Indexer's class comment)
        functions.get("stream-indexer").allow(INDEXER_TABLE, List.of(table.getTableArn()));
        functions.get("stream-indexer").allow(COLD_INDEXER, List.of(cold));
        functions
                .get("stream-indexer")
                .role()
                .addToPolicy(PolicyStatement.Builder.create()
                        .actions(List.of(COLD_LIST_VERSIONS))
                        .resources(List.of(bucket.getBucketArn()))
                        .conditions(Map.of("StringLike", Map.of("s3:prefix", List.of(COLD_PREFIX + "*"))))
                        .build());
        // secret-scan touches no store at all: its role keeps only its log group
        for (QuarkusFunction f : functions.values()) {
            Nag.suppressWhere(
                    f.role(),
                    "AwsSolutions-IAM5",
                    List.of(
                            "/^Resource::.*\\/(teams|tool-cache)\\/\\*$/",
                            "/^Resource::arn:<AWS::Partition>:bedrock:\\*::foundation-model\\/.+$/"),
                    "S3: object keys are one per memory or tool result, not known in advance, and the statement stops"
                            + " at the prefix this function's code uses; Bedrock: a cross-region inference profile"
                            + " routes to its model in any region of its geography, the model id itself is fixed");
        }
    }

    /**
     * A cross-region inference profile ({@code us.…}, {@code eu.…}) is invoked through the profile and routed to the
     * model in any region of its geography, so both the profile and the model in those regions must be allowed.
     */
    private List<String> claudeResources(CairnSettings settings) {
        String model = settings.textModel();
        if (model.isBlank()) {
            return List.of();
        }
        String partition = getPartition();
        if (model.matches("(us|eu|apac|global)\\..+")) {
            String base = model.substring(model.indexOf('.') + 1);
            return List.of(
                    "arn:" + partition + ":bedrock:" + getRegion() + ":" + getAccount() + ":inference-profile/" + model,
                    "arn:" + partition + ":bedrock:*::foundation-model/" + base);
        }
        return List.of("arn:" + partition + ":bedrock:" + getRegion() + "::foundation-model/" + model);
    }

    /**
     * Memory items only ({@code pk} {@code T#…}, {@code sk} {@code M#…}): sessions, cache entries and counters, the
     * sync log and the decay cursor share the table, and would otherwise each invoke (and bill) the indexer for a
     * record it skips. The filter is evaluated by Lambda's event source mapping before the function is invoked.
     */
    static Map<String, Object> memoryItemsOnly() {
        return Map.of(
                "dynamodb",
                Map.of(
                        "Keys",
                        Map.of(
                                "pk", Map.of("S", FilterRule.beginsWith("T#")),
                                "sk", Map.of("S", FilterRule.beginsWith("M#")))));
    }

    /** The oldest record the indexer has not finished, in ms; above it recall serves stale text (5 minutes). */
    static final int ITERATOR_AGE_ALARM_MS = 300_000;

    /** Table changes → indexer (via its alias), batches of 100, failed records reported one by one, then a DLQ. */
    private void streamIndexer(Queue dlq, IAlarmAction alarmAction) {
        QuarkusFunction indexer = functions.get("stream-indexer");
        indexer.allow(TABLE_STREAM_READ, List.of(table.getTableStreamArn()));
        indexer.allow(
                List.of("sqs:SendMessage", "sqs:GetQueueAttributes", "sqs:GetQueueUrl"), List.of(dlq.getQueueArn()));
        EventSourceMapping.Builder.create(this, "TableStream")
                .target(indexer.alias())
                .eventSourceArn(table.getTableStreamArn())
                .startingPosition(StartingPosition.TRIM_HORIZON)
                .filters(List.of(FilterCriteria.filter(memoryItemsOnly())))
                .batchSize(100)
                .maxBatchingWindow(Duration.seconds(1))
                .reportBatchItemFailures(true)
                .bisectBatchOnError(true)
                .retryAttempts(5)
                .onFailure(new SqsDlq(dlq))
                .build();
        // a stuck or slow indexer shows as the age of the oldest unprocessed stream record (Lambda's IteratorAge)
        Alarm age = Alarm.Builder.create(this, "IndexerIteratorAgeAlarm")
                .alarmName("cairn-stream-indexer-iterator-age")
                .alarmDescription("cairn-stream-indexer: the oldest unindexed change is over "
                        + ITERATOR_AGE_ALARM_MS / 60_000 + " minutes old")
                .metric(indexer.function()
                        .metric(
                                "IteratorAge",
                                MetricOptions.builder()
                                        .statistic("Maximum")
                                        .period(Duration.minutes(1))
                                        .build()))
                .threshold(ITERATOR_AGE_ALARM_MS)
                .evaluationPeriods(5)
                .datapointsToAlarm(3)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
        age.addAlarmAction(alarmAction);
    }

    /**
     * The decay job on a schedule. Each run walks the teams from where the last one stopped (the job stores its
     * resume point), so a run cut short by the Lambda timeout loses nothing; a failed invocation is retried twice and
     * then lands in the dead-letter queue.
     */
    private void decaySchedule(CairnSettings settings, Queue dlq) {
        Rule.Builder.create(this, "DecaySchedule")
                .ruleName("cairn-decay")
                .description("Runs the Cairn decay job (decay, archive, expire)")
                .schedule(Schedule.expression(settings.decaySchedule()))
                .targets(List.of(
                        LambdaFunction.Builder.create(functions.get("decay-job").alias())
                                .event(RuleTargetInput.fromObject(Map.of("cairn", "decay-schedule")))
                                .deadLetterQueue(dlq)
                                .retryAttempts(2)
                                .maxEventAge(Duration.hours(1))
                                .build()))
                .build();
    }

    /** Every route of {@link Routes} behind the JWT authorizer, on a throttled default stage. */
    private HttpApi api(CairnSettings settings) {
        HttpJwtAuthorizer authorizer = HttpJwtAuthorizer.Builder.create("CairnJwt", trust.issuer())
                .jwtAudience(trust.audience())
                .identitySource(List.of("$request.header.Authorization"))
                .build();
        HttpApi.Builder builder = HttpApi.Builder.create(this, "Api")
                .apiName("cairn")
                .createDefaultStage(false)
                .defaultAuthorizer(authorizer);
        if (!settings.corsOrigins().isEmpty()) {
            builder.corsPreflight(consoleCors(settings.corsOrigins()));
        }
        HttpApi http = builder.build();
        HttpStage stage = HttpStage.Builder.create(this, "DefaultStage")
                .httpApi(http)
                .stageName("$default")
                .autoDeploy(true)
                .throttle(ThrottleSettings.builder()
                        .rateLimit(settings.throttleRate())
                        .burstLimit(settings.throttleBurst())
                        .build())
                .build();
        // access logs (AwsSolutions-APIG1): one JSON line per request, without headers or bodies (no token, no content)
        LogGroup accessLogs = LogGroup.Builder.create(this, "ApiAccessLogs")
                .logGroupName("/aws/apigateway/cairn-access")
                .retention(QuarkusFunction.retention(settings.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        ((CfnStage) stage.getNode().getDefaultChild())
                .setAccessLogSettings(CfnStage.AccessLogSettingsProperty.builder()
                        .destinationArn(accessLogs.getLogGroupArn())
                        .format(ACCESS_LOG_FORMAT)
                        .build());
        Map<String, HttpLambdaIntegration> integrations = new LinkedHashMap<>();
        List<Routes.Route> routes = new ArrayList<>(Routes.ALL);
        routes.addAll(Routes.MCP);
        for (Routes.Route r : routes) {
            HttpLambdaIntegration integration = integrations.computeIfAbsent(
                    r.function(),
                    f -> new HttpLambdaIntegration(
                            pascal(f) + "Integration", functions.get(f).alias()));
            http.addRoutes(AddRoutesOptions.builder()
                    .path(r.path())
                    .methods(List.of(HttpMethod.valueOf(r.method())))
                    .integration(integration)
                    .authorizer(authorizer)
                    .build());
        }
        return http;
    }

    /**
     * What the web console needs from another origin: its bearer header, JSON bodies, {@code If-Match} on edits and
     * the {@code ETag} it reads back. API Gateway answers the preflight itself, before the authorizer (a preflight
     * carries no token). No credentials mode: the token travels in a header, never in a cookie.
     */
    static CorsPreflightOptions consoleCors(List<String> origins) {
        return CorsPreflightOptions.builder()
                .allowOrigins(origins)
                .allowMethods(List.of(
                        CorsHttpMethod.GET,
                        CorsHttpMethod.POST,
                        CorsHttpMethod.PUT,
                        CorsHttpMethod.PATCH,
                        CorsHttpMethod.DELETE))
                .allowHeaders(List.of("authorization", "content-type", "if-match"))
                .exposeHeaders(List.of("etag"))
                .maxAge(Duration.hours(1))
                .build();
    }

    /** API Gateway's $context variables: who, what route, the outcome and the time it took; no headers, no bodies. */
    static final String ACCESS_LOG_FORMAT =
            "{\"requestId\":\"$context.requestId\",\"ip\":\"$context.identity.sourceIp\","
                    + "\"requestTime\":\"$context.requestTime\",\"routeKey\":\"$context.routeKey\",\"status\":\"$context.status\","
                    + "\"responseLength\":\"$context.responseLength\",\"integrationLatency\":\"$context.integrationLatency\","
                    + "\"sub\":\"$context.authorizer.claims.sub\"}";

    static String pascal(String name) {
        StringBuilder b = new StringBuilder();
        for (String part : name.split("-")) {
            b.append(Character.toUpperCase(part.charAt(0))).append(part.substring(1));
        }
        return b.toString();
    }

    public Map<String, QuarkusFunction> functions() {
        return functions;
    }
}
