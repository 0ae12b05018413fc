package dev.stockade.cli;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The seams of the core, enforced on the compiled classes of the core modules and the CLI (this module's
 * class path holds them all): a module's {@code internal} packages are its own, and the core uses no
 * framework.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stockade");

    /** Each module's root packages, by the internal package only they may use. */
    private static final Map<String, String[]> OWNERS = Map.of(
            "dev.stockade.policy.model.internal..", new String[] {"dev.stockade.policy.model..",
                    "dev.stockade.policy.glob.."},
            "dev.stockade.policy.graphql.internal..", new String[] {"dev.stockade.policy.graphql.."},
            "dev.stockade.policy.eval.internal..", new String[] {"dev.stockade.policy.eval.."},
            "dev.stockade.policy.compiler.internal..", new String[] {"dev.stockade.policy.compiler.."});

    @Test
    void internalPackagesAreUsedOnlyByTheirOwnModule() {
        OWNERS.forEach((internal, owners) -> {
            ArchRule rule = noClasses().that().resideOutsideOfPackages(owners)
                    .should().dependOnClassesThat().resideInAPackage(internal)
                    .because("`internal` is a module's own; other modules use its public API");
            rule.check(CLASSES);
        });
    }

    @Test
    void theCoreUsesNoFramework() {
        noClasses().that().resideInAPackage("dev.stockade.policy..")
                .should().dependOnClassesThat().resideInAnyPackage("io.micronaut..", "io.netty..",
                        "org.springframework..", "jakarta..", "javax.inject..", "picocli..", "io.micrometer..",
                        "com.google.inject..", "dagger..")
                .because("the core is plain Java, embedded by thin hosts (DESIGN.md)")
                .check(CLASSES);
    }
}
