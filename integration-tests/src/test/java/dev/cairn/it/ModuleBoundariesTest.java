package dev.cairn.it;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The boundaries between the modules, over every module's production classes (this module's test class path holds
 * them all): resources see use cases and ports, never an adapter or an SDK; the adapter modules never import each
 * other; only the local server may see both. shared-model's own allow-list is its {@code ArchitectureTest}.
 */
class ModuleBoundariesTest {

    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn");

    /** The packages of the function modules (resources and handlers). */
    private static final String[] FUNCTIONS = {
        "dev.cairn.recall..",
        "dev.cairn.session..",
        "dev.cairn.factextract..",
        "dev.cairn.teamsync..",
        "dev.cairn.scan..",
        "dev.cairn.decay..",
        "dev.cairn.indexer.."
    };

    @Test
    void resources_neverImportAnAdapterOrAnSdk() {
        noClasses()
                .that()
                .resideInAnyPackage(FUNCTIONS)
                .and()
                .resideOutsideOfPackage("dev.cairn.indexer..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(
                        "dev.cairn.aws..",
                        "dev.cairn.embedded..",
                        "software.amazon..",
                        "org.opensearch..",
                        "org.apache.lucene..",
                        "org.sqlite..")
                .because("a resource serves use cases; which adapter is behind a port is the application's choice")
                .check(CLASSES);
    }

    @Test
    void theClientLibrary_dependsOnNoServerModule() {
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.client..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(FUNCTIONS, "dev.cairn.model..", "dev.cairn.app..", "dev.cairn.http.."))
                .because("agents use it with nothing of the server on their classpath: the wire types are its own")
                .check(CLASSES);
    }

    @Test
    void adapterModules_neverImportEachOther() {
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.embedded..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.cairn.aws..")
                .check(CLASSES);
        noClasses()
                .that()
                .resideInAPackage("dev.cairn.aws..")
                .should()
                .dependOnClassesThat()
                .resideInAPackage("dev.cairn.embedded..")
                .check(CLASSES);
    }

    @Test
    void applicationAndHttpPlumbing_neverImportAnAdapterOrAFunction() {
        noClasses()
                .that()
                .resideInAnyPackage("dev.cairn.app..", "dev.cairn.http..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(concat(
                        FUNCTIONS, "dev.cairn.aws..", "dev.cairn.embedded..", "dev.cairn.local..", "software.amazon.."))
                .because("the wiring selects adapters by qualifier; it must build without any adapter module")
                .check(CLASSES);
    }

    @Test
    void theCheckedClasses_includeEveryModule() {
        for (String pkg : new String[] {
            "dev.cairn.app",
            "dev.cairn.http",
            "dev.cairn.aws",
            "dev.cairn.embedded",
            "dev.cairn.recall",
            "dev.cairn.session",
            "dev.cairn.factextract",
            "dev.cairn.teamsync",
            "dev.cairn.scan",
            "dev.cairn.decay"
        }) {
            assertThat(CLASSES.stream().anyMatch(c -> c.getPackageName().equals(pkg)))
                    .as(pkg)
                    .isTrue();
        }
    }

    private static String[] concat(String[] a, String... b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }
}
