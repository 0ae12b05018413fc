package dev.stockade.testing;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.Map;

/**
 * The core's seams, one definition for every module's ArchitectureTest (the CLI, the proxy, the platform): a core
 * module's {@code internal} packages are its own, and the core uses no framework (DESIGN.md, docs/architecture.md).
 */
public final class CoreSeams {
    /** Each core module's internal package, by the root packages that alone may use it. */
    private static final Map<String, String[]> OWNERS = Map.of(
            "dev.stockade.policy.model.internal..", new String[] {"dev.stockade.policy.model..",
                    "dev.stockade.policy.glob.."},
            "dev.stockade.policy.graphql.internal..", new String[] {"dev.stockade.policy.graphql.."},
            "dev.stockade.policy.eval.internal..", new String[] {"dev.stockade.policy.eval.."},
            "dev.stockade.policy.compiler.internal..", new String[] {"dev.stockade.policy.compiler.."});

    private CoreSeams() {
    }

    /** Fails when a class outside a core module uses that module's {@code internal} package. */
    public static void internalsAreTheirModulesOwn(JavaClasses classes) {
        OWNERS.forEach((internal, owners) -> noClasses().that().resideOutsideOfPackages(owners)
                .should().dependOnClassesThat().resideInAPackage(internal)
                .because("`internal` is a module's own; other modules use its public API").check(classes));
    }

    /** Fails when a core class uses a framework. */
    public static void coreUsesNoFramework(JavaClasses classes) {
        noClasses().that().resideInAPackage("dev.stockade.policy..")
                .should().dependOnClassesThat().resideInAnyPackage("io.micronaut..", "io.netty..",
                        "org.springframework..", "jakarta..", "javax.inject..", "picocli..", "io.micrometer..",
                        "com.google.inject..", "dagger..")
                .because("the core is plain Java, embedded by thin hosts (DESIGN.md)")
                .allowEmptyShould(true)
                .check(classes);
    }
}
