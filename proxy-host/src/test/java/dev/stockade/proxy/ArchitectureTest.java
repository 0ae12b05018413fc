package dev.stockade.proxy;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.stockade.testing.CoreSeams;
import org.junit.jupiter.api.Test;

/**
 * The proxy's floors (docs/architecture.md), on its compiled classes and the core it embeds: no package cycle, the
 * shared dial guard uses nothing of the proxy's own, and the core's {@code internal} packages stay the core's.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stockade.proxy", "dev.stockade.policy");

    @Test
    void noPackageCycles() {
        slices().matching("dev.stockade.proxy.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void theDialGuardStandsAlone() {
        noClasses().that().resideInAPackage("dev.stockade.proxy.dial..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.stockade.proxy.internal..",
                        "dev.stockade.proxy.feed..")
                .because("the platform shares the dial guard; it must not drag the proxy's internals along")
                .check(CLASSES);
    }

    @Test
    void auditLinesAreBuiltByName() {
        ArchCondition<JavaClass> construct = new ArchCondition<>("construct AuditEvent") {
            @Override
            public void check(JavaClass origin, ConditionEvents events) {
                origin.getConstructorCallsFromSelf().stream()
                        .filter(call -> call.getTargetOwner().isEquivalentTo(AuditEvent.class))
                        .forEach(call -> events.add(SimpleConditionEvent.satisfied(call, call.getDescription())));
            }
        };
        noClasses().that().doNotHaveFullyQualifiedName(AuditEvent.Builder.class.getName())
                .should(construct)
                .because("an audit line has 18 fields: it is built by name through AuditEvent.builder()")
                .check(CLASSES);
    }

    @Test
    void coreInternalsAreTheirModulesOwn() {
        CoreSeams.internalsAreTheirModulesOwn(CLASSES);
        CoreSeams.coreUsesNoFramework(CLASSES);
    }
}
