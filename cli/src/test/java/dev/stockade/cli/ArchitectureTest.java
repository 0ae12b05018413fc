package dev.stockade.cli;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.stockade.testing.CoreSeams;
import org.junit.jupiter.api.Test;

/**
 * The seams of the core, enforced on the compiled classes of the core modules and the CLI (this module's class path
 * holds them all): a module's {@code internal} packages are its own, and the core uses no framework. The rules are
 * {@link CoreSeams}, the same for every module that checks them.
 */
class ArchitectureTest {
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.stockade");

    @Test
    void internalPackagesAreUsedOnlyByTheirOwnModule() {
        CoreSeams.internalsAreTheirModulesOwn(CLASSES);
    }

    @Test
    void theCoreUsesNoFramework() {
        CoreSeams.coreUsesNoFramework(CLASSES);
    }
}
