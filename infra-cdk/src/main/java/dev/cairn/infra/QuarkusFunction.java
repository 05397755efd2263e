package dev.cairn.infra;

import java.util.List;
import java.util.Map;
import software.amazon.awscdk.Annotations;
import software.amazon.awscdk.Duration;
import software.amazon.awscdk.RemovalPolicy;
import software.amazon.awscdk.services.cloudwatch.Alarm;
import software.amazon.awscdk.services.cloudwatch.ComparisonOperator;
import software.amazon.awscdk.services.cloudwatch.IAlarmAction;
import software.amazon.awscdk.services.cloudwatch.Metric;
import software.amazon.awscdk.services.cloudwatch.MetricOptions;
import software.amazon.awscdk.services.cloudwatch.TreatMissingData;
import software.amazon.awscdk.services.iam.PolicyStatement;
import software.amazon.awscdk.services.iam.Role;
import software.amazon.awscdk.services.iam.ServicePrincipal;
import software.amazon.awscdk.services.lambda.Alias;
import software.amazon.awscdk.services.lambda.Architecture;
import software.amazon.awscdk.services.lambda.Code;
import software.amazon.awscdk.services.lambda.Function;
import software.amazon.awscdk.services.lambda.Runtime;
import software.amazon.awscdk.services.lambda.SnapStartConf;
import software.amazon.awscdk.services.logs.LogGroup;
import software.amazon.awscdk.services.logs.RetentionDays;
import software.amazon.awscdk.services.sqs.IQueue;
import software.constructs.Construct;

/**
 * One Cairn function as every one of them is deployed: Java 21 on arm64 (about 20 % cheaper per GB-second than x86
 * and SnapStart supports it), SnapStart on published versions with the alias {@code live} pointing at the current
 * version (API Gateway, schedules and stream mappings call the alias, so a deploy switches them atomically and the
 * snapshot is always used), memory and timeout from context, its own log group with a retention, and its own role
 * that starts with nothing but writing to that log group — each caller of this construct grants what the function
 * needs, nothing more (no AWS managed policy: AWSLambdaBasicExecutionRole allows logs on every resource).
 * Errors and throttles of the alias raise alarms.
 */
public final class QuarkusFunction extends Construct {

    /** The handler of every Quarkus HTTP function (quarkus-amazon-lambda-http). */
    public static final String QUARKUS_HANDLER = "io.quarkus.amazon.lambda.runtime.QuarkusStreamHandler::handleRequest";

    /**
     * @param name            the function's name within Cairn (also its functions/ directory)
     * @param code            its deployment package
     * @param handler         the handler method
     * @param environment     variables: Quarkus maps {@code CAIRN_AWS_DYNAMODB_TABLE} to {@code cairn.aws.dynamodb.table}
     * @param deadLetterQueue where failed asynchronous invocations go, or null for functions only called synchronously
     * @param alarmAction     what alarms do (an SNS topic), or null
     */
    public record Props(
            String name,
            Code code,
            String handler,
            int memoryMb,
            int timeoutSeconds,
            int logRetentionDays,
            Map<String, String> environment,
            IQueue deadLetterQueue,
            IAlarmAction alarmAction) {}

    private final Function function;
    private final Alias alias;
    private final Role role;

    public QuarkusFunction(Construct scope, String id, Props props) {
        super(scope, id);
        LogGroup logs = LogGroup.Builder.create(this, "Logs")
                .logGroupName("/aws/lambda/cairn-" + props.name())
                .retention(retention(props.logRetentionDays()))
                .removalPolicy(RemovalPolicy.DESTROY)
                .build();
        this.role = Role.Builder.create(this, "Role")
                .assumedBy(new ServicePrincipal("lambda.amazonaws.com"))
                .description("cairn-" + props.name() + ": its log group, plus what the stack grants it")
                .build();
        role.addToPolicy(PolicyStatement.Builder.create()
                .actions(List.of("logs:CreateLogStream", "logs:PutLogEvents"))
                .resources(List.of(logs.getLogGroupArn()))
                .build());
        Function.Builder fn = Function.Builder.create(this, "Function")
                .functionName("cairn-" + props.name())
                .runtime(Runtime.JAVA_21)
                .architecture(Architecture.ARM_64)
                .handler(props.handler())
                .code(props.code())
                .memorySize(props.memoryMb())
                .timeout(Duration.seconds(props.timeoutSeconds()))
                .snapStart(SnapStartConf.ON_PUBLISHED_VERSIONS)
                .role(role)
                .logGroup(logs)
                .environment(props.environment());
        if (props.deadLetterQueue() != null) {
            fn.deadLetterQueue(props.deadLetterQueue());
        }
        this.function = fn.build();
        Nag.suppress(
                function,
                "AwsSolutions-L1",
                "Java 21 is the runtime the packages, SnapStart and the cold-start bench are verified on; a newer"
                        + " Java runtime is a deliberate upgrade with the bench re-run, not a silent default");
        // the warning asks for a published version: the alias below publishes one on every code or config change
        Annotations.of(function)
                .acknowledgeWarning(
                        "@aws-cdk/aws-lambda:snapStartRequirePublish",
                        "the live alias points at currentVersion, published by every deploy");
        this.alias = Alias.Builder.create(this, "Live")
                .aliasName("live")
                .version(function.getCurrentVersion())
                .build();

        alarm("Errors", "Errors", props);
        alarm("Throttles", "Throttles", props);
    }

    private void alarm(String id, String metricName, Props props) {
        Metric metric = alias.metric(
                metricName,
                MetricOptions.builder()
                        .statistic("Sum")
                        .period(Duration.minutes(5))
                        .build());
        Alarm alarm = Alarm.Builder.create(this, id + "Alarm")
                .alarmName("cairn-" + props.name() + "-" + metricName.toLowerCase())
                .alarmDescription("cairn-" + props.name() + ": " + metricName.toLowerCase() + " in the last 5 minutes")
                .metric(metric)
                .threshold(1)
                .evaluationPeriods(1)
                .comparisonOperator(ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD)
                .treatMissingData(TreatMissingData.NOT_BREACHING)
                .build();
        if (props.alarmAction() != null) {
            alarm.addAlarmAction(props.alarmAction());
        }
    }

    public Function function() {
        return function;
    }

    /** What callers invoke: the alias on the published (SnapStart) version. */
    public Alias alias() {
        return alias;
    }

    public Role role() {
        return role;
    }

    public void allow(List<String> actions, List<String> resources) {
        role.addToPolicy(PolicyStatement.Builder.create()
                .actions(actions)
                .resources(resources)
                .build());
    }

    /** CloudWatch accepts only these retention periods; anything else is a configuration error. */
    static RetentionDays retention(int days) {
        return switch (days) {
            case 1 -> RetentionDays.ONE_DAY;
            case 3 -> RetentionDays.THREE_DAYS;
            case 5 -> RetentionDays.FIVE_DAYS;
            case 7 -> RetentionDays.ONE_WEEK;
            case 14 -> RetentionDays.TWO_WEEKS;
            case 30 -> RetentionDays.ONE_MONTH;
            case 60 -> RetentionDays.TWO_MONTHS;
            case 90 -> RetentionDays.THREE_MONTHS;
            case 120 -> RetentionDays.FOUR_MONTHS;
            case 150 -> RetentionDays.FIVE_MONTHS;
            case 180 -> RetentionDays.SIX_MONTHS;
            case 365 -> RetentionDays.ONE_YEAR;
            case 400 -> RetentionDays.THIRTEEN_MONTHS;
            case 545 -> RetentionDays.EIGHTEEN_MONTHS;
            case 731 -> RetentionDays.TWO_YEARS;
            case 1827 -> RetentionDays.FIVE_YEARS;
            case 3653 -> RetentionDays.TEN_YEARS;
            default ->
                throw new IllegalArgumentException("context logRetentionDays must be one CloudWatch accepts "
                        + "(1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1827, 3653): " + days);
        };
    }
}
