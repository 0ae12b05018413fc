package dev.stockade.conformance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.cli.testing.CaseResult;
import dev.stockade.cli.testing.FormatError;
import dev.stockade.cli.testing.PolicyTestRunner;
import dev.stockade.cli.testing.TestReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * Runs the conformance corpus, the repository's examples and the shared examples through the same
 * runner as {@code stockade policy test}: one JUnit test per case, one failing test per malformed file.
 */
class ConformanceTest {
    private static final Path ROOT = Path.of(System.getProperty("stockade.root", "..")).toAbsolutePath().normalize();

    @TestFactory
    Stream<DynamicTest> corpus() {
        return run(ROOT.resolve("conformance-tests/src/test/resources/conformance"));
    }

    @TestFactory
    Stream<DynamicTest> examples() {
        return run(ROOT.resolve("examples"));
    }

    /** The examples every submission must pass; they sit beside the clone, in shared/. */
    @TestFactory
    Stream<DynamicTest> sharedExamples() {
        Path shared = ROOT.resolve("../shared/conformance/examples").normalize();
        Assumptions.assumeTrue(Files.isDirectory(shared), "no shared examples at " + shared);
        return run(shared);
    }

    private static Stream<DynamicTest> run(Path folder) {
        assertThat(folder).isDirectory();
        TestReport report = new PolicyTestRunner().run(List.of(folder));
        assertThat(report.results()).as("cases under %s", folder).isNotEmpty();
        Stream<DynamicTest> malformed = report.formatErrors().stream()
                .map(e -> DynamicTest.dynamicTest("malformed " + e.file(), () -> failFormat(e)));
        Stream<DynamicTest> cases = report.results().stream()
                .map(r -> DynamicTest.dynamicTest(ROOT.relativize(Path.of(r.file()).toAbsolutePath()) + ": " + r.suite() + " / " + r.name(), () -> check(r)));
        return Stream.concat(malformed, cases);
    }

    private static void failFormat(FormatError error) {
        throw new AssertionError(error.render());
    }

    private static void check(CaseResult result) {
        Assumptions.assumeTrue(result.status() != CaseResult.Status.SKIPPED, () -> "skipped: " + result.actual());
        assertThat(result.status())
                .as("%s [%s] expected %s, got %s", result.name(), result.kind(), result.expected(), result.actual())
                .isEqualTo(CaseResult.Status.PASSED);
    }
}
