package dev.cairn.model.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The domain stays framework-free so that Lambdas, the local server and tests all run the same decisions. An
 * allow-list, not a deny-list: a new dependency of shared-model fails here until it is named below, so a framework
 * or an adapter cannot slip in under a package nobody thought to forbid.
 */
class ArchitectureTest {

    private static final JavaClasses DOMAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.cairn.model");

    /** Exactly the compile-scope libraries of shared-model's pom, each pure Java with no framework of its own. */
    private static final String[] PURE_LIBRARIES = {
        "com.github.f4b6a3.ulid..", // ulid-creator: time-ordered ids
        "com.github.benmanes.caffeine..", // caffeine: the tool cache's first level
        "org.erdtman.jcs..", // java-json-canonicalization: RFC 8785 cache keys
    };

    @Test
    void sharedModel_shouldDependOnlyOnTheJdkItselfAndItsFewPureLibraries() {
        classes()
                .that()
                .resideInAPackage("dev.cairn.model..")
                .should()
                .onlyDependOnClassesThat()
                .resideInAnyPackage(allowed())
                .because("shared-model is pure Java: ports and use cases, no frameworks or adapters")
                .check(DOMAIN);
    }

    private static String[] allowed() {
        String[] own = {"java..", "dev.cairn.model..", ""}; // "": primitives and arrays of them have no package
        String[] all = new String[own.length + PURE_LIBRARIES.length];
        System.arraycopy(own, 0, all, 0, own.length);
        System.arraycopy(PURE_LIBRARIES, 0, all, own.length, PURE_LIBRARIES.length);
        return all;
    }

    @Test
    void sharedModel_shouldHaveClasses() {
        // the rule above holds vacuously for an empty import: this keeps it honest
        assertThat(DOMAIN.size()).isGreaterThan(80);
    }
}
