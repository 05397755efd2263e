package dev.cairn.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.cairn.aws.DynamoDbMemoryStore;
import dev.cairn.infra.CairnStack;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * The stack's IAM actions, derived from the calls the adapters' bytecode makes on the SDK clients: a role that lacks
 * an action the code calls fails in AWS only (the indexer's tombstone purge without {@code DeleteItem} did), and an
 * action no code calls is a right nobody needs. Each SDK operation maps to its IAM action ({@code getItem} →
 * {@code dynamodb:GetItem}; S3's {@code headObject} needs {@code s3:GetObject}, {@code listObjectsV2}
 * {@code s3:ListBucket}).
 */
class IamActionsCrossCheckTest {

    private static final JavaClasses ADAPTERS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.aws");

    /** Operations the code calls that need no role: table creation runs against local stand-ins only. */
    private static final Set<String> STAND_IN_ONLY = Set.of("dynamodb:CreateTable");

    private static final Map<String, String> S3_ACTIONS = Map.of(
            "getObjectAsBytes", "s3:GetObject",
            "getObject", "s3:GetObject",
            "headObject", "s3:GetObject",
            "putObject", "s3:PutObject",
            "deleteObject", "s3:DeleteObject",
            "listObjectsV2", "s3:ListBucket",
            "listObjectVersions", "s3:ListBucketVersions");

    /**
     * The cold store deletes only by version id (the bucket is versioned: every version of a deleted memory's copy
     * goes), and S3 authorises a delete that names a version as {@code s3:DeleteObjectVersion}.
     */
    private static final Map<String, String> COLD_STORE_ACTIONS = Map.of("deleteObject", "s3:DeleteObjectVersion");

    @Test
    void theApiFunctionsTableActions_areExactlyTheDynamoDbOperationsTheAdaptersCall() {
        Set<String> called = new TreeSet<>();
        for (JavaClass c : ADAPTERS) {
            for (JavaCodeUnit u : c.getCodeUnits()) {
                called.addAll(dynamoActions(u));
            }
        }
        called.removeAll(STAND_IN_ONLY);

        assertThat(called).isEqualTo(new TreeSet<>(CairnStack.TABLE_READ_WRITE));
    }

    @Test
    void theStreamIndexersTableActions_areWhatTheIndexersStoreMethodsCall() {
        // Indexer.bringUpToDate → indexWork; forget → get; remove/index → markIndexed
        Set<String> called =
                reachable(ADAPTERS.get(DynamoDbMemoryStore.class), Set.of("indexWork", "get", "markIndexed"));

        assertThat(called).isEqualTo(new TreeSet<>(CairnStack.INDEXER_TABLE)).contains("dynamodb:DeleteItem");
    }

    @Test
    void theS3Actions_areExactlyTheOperationsTheS3AdaptersCall() {
        Set<String> coldStore = new TreeSet<>();
        Set<String> blobs = new TreeSet<>();
        for (JavaClass c : ADAPTERS) {
            for (JavaCodeUnit u : c.getCodeUnits()) {
                for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
                    if (call.getTargetOwner().isAssignableTo(S3Client.class)
                            && S3_ACTIONS.containsKey(call.getName())) {
                        String action = S3_ACTIONS.get(call.getName());
                        if (c.getSimpleName().equals("S3ColdStore")) {
                            coldStore.add(COLD_STORE_ACTIONS.getOrDefault(call.getName(), action));
                        } else if (c.getSimpleName().equals("S3Blobs")) {
                            blobs.add(action);
                        }
                    }
                }
            }
        }
        Set<String> decay = new TreeSet<>(CairnStack.COLD_DECAY);
        decay.add(CairnStack.COLD_LIST);
        decay.add(CairnStack.COLD_LIST_VERSIONS);
        assertThat(coldStore).isEqualTo(decay);
        assertThat(blobs).isEqualTo(new TreeSet<>(CairnStack.TOOL_CACHE_OBJECTS));
        // the indexer only drops cold copies, every version of them
        assertThat(CairnStack.COLD_INDEXER).containsExactly("s3:DeleteObjectVersion");
    }

    /** The DynamoDB actions of {@code roots} in {@code owner}, following its own methods and their lambdas. */
    private static Set<String> reachable(JavaClass owner, Set<String> roots) {
        Set<String> actions = new TreeSet<>();
        Set<String> seen = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(roots);
        while (!todo.isEmpty()) {
            String name = todo.pop();
            if (!seen.add(name)) {
                continue;
            }
            for (JavaCodeUnit u : owner.getCodeUnits()) {
                // javac names a lambda's body after its enclosing method: lambda$get$3
                if (!u.getName().equals(name) && !u.getName().startsWith("lambda$" + name + "$")) {
                    continue;
                }
                actions.addAll(dynamoActions(u));
                for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
                    if (call.getTargetOwner().equals(owner)) {
                        todo.push(call.getName());
                    }
                }
            }
        }
        return actions;
    }

    private static Set<String> dynamoActions(JavaCodeUnit u) {
        Set<String> out = new TreeSet<>();
        for (JavaMethodCall call : u.getMethodCallsFromSelf()) {
            if (call.getTargetOwner().isAssignableTo(DynamoDbClient.class)
                    && call.getTarget().getRawReturnType().getSimpleName().endsWith("Response")) {
                String n = call.getName();
                out.add("dynamodb:" + n.substring(0, 1).toUpperCase(Locale.ROOT) + n.substring(1));
            }
        }
        return out;
    }
}
