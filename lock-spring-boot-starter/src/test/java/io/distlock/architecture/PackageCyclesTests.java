package io.distlock.architecture;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * No package of the library's main code imports a package that imports it back, across the modules on this class
 * path: lock-core, lock-jdbc, lock-redis and the starter. A new cycle fails the build, naming the classes that make
 * it.
 */
class PackageCyclesTests {

    private static final JavaClasses MAIN_CODE = new ClassFileImporter()
        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
        .importPackages("io.distlock");

    @Test
    void noPackageOfTheMainCodeDependsOnItself() {
        slices().matching("io.distlock.(**)").should().beFreeOfCycles().check(MAIN_CODE);
    }
}
