package dev.stockade.policy.impact;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.stockade.testing.CoreSeams;
import org.junit.jupiter.api.Test;

/** Replay is core: no framework, and no other module's internals (the rules every module shares). */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages("dev.stockade.policy");

    @Test
    void usesNoFrameworkAndNoInternals() {
        CoreSeams.coreUsesNoFramework(CLASSES);
        CoreSeams.internalsAreTheirModulesOwn(CLASSES);
    }
}
