package dev.cairn.model.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/** The domain stays framework-free so that Lambdas, the local server and tests all run the same decisions. */
class ArchitectureTest {

    private static final JavaClasses DOMAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.cairn.model");

    @Test
    void sharedModel_shouldNotDependOnAwsQuarkusJakartaOrAdapters() {
        noClasses().that().resideInAPackage("dev.cairn.model..")
                .should().dependOnClassesThat().resideInAnyPackage("software.amazon..", "com.amazonaws..",
                        "io.quarkus..", "jakarta..", "javax.ws..", "org.opensearch..", "io.smallrye..",
                        "com.fasterxml.jackson..", "org.apache.lucene..", "dev.cairn.embedded..", "dev.cairn.aws..",
                        "dev.cairn.http..", "dev.cairn.recall..", "dev.cairn.local..")
                .because("shared-model is pure Java: ports and use cases, no frameworks or adapters")
                .check(DOMAIN);
    }

    @Test
    void sharedModel_shouldHaveClasses() {
        org.assertj.core.api.Assertions.assertThat(DOMAIN.size()).isGreaterThan(20);
    }
}
