package org.fabprobe;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

/**
 * The package layering of ../shared/DESIGN.md: each layer imports only layers below it (the
 * root package's exit codes and exception, and the generated bindings, are below all), and no
 * two top-level packages depend on each other.
 */
class LayersTest {
    // fabprobe's own classes only: the generated bindings (their own module, thousands of
    // classes) import nothing of fabprobe's, and scanning them took most of this test's time
    private static final JavaClasses CLASSES = new ClassFileImporter()
            .importPath(java.nio.file.Path.of("target", "classes"));

    @Test
    void noPackageImportsOneAboveIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("cli").definedBy("org.fabprobe.cli..")
                .layer("accept").definedBy("org.fabprobe.accept..")
                .layer("report").definedBy("org.fabprobe.report..", "org.fabprobe.plot..")
                .layer("api").definedBy("org.fabprobe.api..")
                .layer("method").definedBy("org.fabprobe.method..")
                .layer("result").definedBy("org.fabprobe.result..")
                .layer("group").definedBy("org.fabprobe.launch..")
                .layer("pattern").definedBy("org.fabprobe.pattern..")
                .layer("transport").definedBy("org.fabprobe.transport..")
                .layer("model").definedBy("org.fabprobe.model..", "org.fabprobe.clock..")
                .layer("runtime").definedBy("org.fabprobe.runtime..")
                .whereLayer("cli").mayNotBeAccessedByAnyLayer()
                .whereLayer("accept").mayOnlyBeAccessedByLayers("cli")
                .whereLayer("report").mayOnlyBeAccessedByLayers("cli", "accept")
                .whereLayer("api").mayOnlyBeAccessedByLayers("cli", "accept", "report")
                .whereLayer("method").mayOnlyBeAccessedByLayers("cli", "accept", "report", "api")
                .whereLayer("result").mayOnlyBeAccessedByLayers("cli", "accept", "report", "api", "method")
                .whereLayer("group").mayOnlyBeAccessedByLayers("cli", "accept", "report", "api", "method", "result")
                .whereLayer("pattern").mayOnlyBeAccessedByLayers("cli", "accept", "report", "api", "method", "result", "group")
                .whereLayer("transport").mayOnlyBeAccessedByLayers("cli", "accept", "report", "api", "method", "result", "group",
                        "pattern")
                .whereLayer("model").mayOnlyBeAccessedByLayers("cli", "accept", "report", "api", "method", "result", "group",
                        "pattern", "transport")
                .check(CLASSES);
    }

    @Test
    void noCyclesBetweenTopLevelPackages() {
        slices().matching("org.fabprobe.(*)..").should().beFreeOfCycles().check(CLASSES);
    }
}
