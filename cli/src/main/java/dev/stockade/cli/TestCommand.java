package dev.stockade.cli;

import dev.stockade.policy.model.TerminalText;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.cli.testing.CaseResult;
import dev.stockade.cli.testing.CoverageReport;
import dev.stockade.cli.testing.FormatError;
import dev.stockade.cli.testing.PolicyTestRunner;
import dev.stockade.cli.testing.TestReport;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code stockade policy test PATH...}: runs policy test files (the format of FORMAT.md). */
@Command(name = "test", mixinStandardHelpOptions = true,
        description = {"Run policy test files: decision cases, validation, updates, effective policies, describe rows.",
                "Folders are searched recursively for .yaml/.yml test files.",
                "Exit status: 0 all passed, 1 a case failed (or coverage below --coverage-min), 2 a file could not be read"
                        + " or is malformed."})
final class TestCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Spec
    CommandSpec spec;

    @Parameters(arity = "1..*", paramLabel = "PATH", description = "Test files or folders.")
    List<Path> paths;

    @Option(names = "--format", defaultValue = "text", description = "text (default) or json: one JSON object per case.")
    OutputFormat format;

    @Option(names = {"-v", "--verbose"}, description = "Also list passed and skipped cases.")
    boolean verbose;

    @Option(names = "--coverage", description = "Report which entries, rules and GraphQL fences of the tested policies"
            + " the decision cases reached, per policy file.")
    boolean coverage;

    @Option(names = "--coverage-min", paramLabel = "PERCENT", description = "Fail (exit 1) when coverage is below"
            + " PERCENT (0 to 100); implies --coverage.")
    Double coverageMin;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        if (coverageMin != null && !(coverageMin >= 0 && coverageMin <= 100)) {
            err.println("stockade: --coverage-min must be a percentage from 0 to 100");
            return 2;
        }
        PolicyTestRunner runner = new PolicyTestRunner();
        TestReport report = runner.run(paths);
        for (FormatError error : report.formatErrors()) {
            err.println("error: " + TerminalText.escape(error.render()));
        }
        for (CaseResult result : report.results()) {
            if (format == OutputFormat.json) {
                out.println(json(result));
            } else if (verbose || result.status() == CaseResult.Status.FAILED) {
                out.println(TerminalText.escape(line(result)));
            }
        }
        CoverageReport covered = coverage || coverageMin != null ? runner.coverage() : null;
        boolean below = covered != null && coverageMin != null && below(covered, coverageMin, err);
        if (format == OutputFormat.json) {
            ObjectNode summary = JSON.createObjectNode().put("passed", report.passed()).put("failed", report.failed())
                    .put("skipped", report.skipped()).put("malformed", report.formatErrors().size());
            if (covered != null) {
                summary.set("coverage", JSON.valueToTree(covered));
            }
            out.println(summary);
        } else {
            if (covered != null) {
                CoverageText.print(out, covered);
            }
            out.println(report.summary());
        }
        out.flush();
        err.flush();
        return report.exitCode() == 0 && below ? 1 : report.exitCode();
    }

    /**
     * Whether coverage is under {@code min} percent, compared exactly (not on the rounded figure); says so on
     * standard error. No item at all is below any minimum: a gate that measured nothing must not pass.
     */
    private static boolean below(CoverageReport covered, double min, PrintWriter err) {
        if (covered.total() == 0) {
            err.println("coverage: no decision case resolved a policy entry; nothing was measured, below --coverage-min");
            return true;
        }
        boolean below = 100.0 * covered.covered() / covered.total() < min;
        if (below) {
            err.println("coverage " + covered.percent() + "% is below --coverage-min " + min + "%");
        }
        return below;
    }

    static String line(CaseResult r) {
        String where = r.file() + (r.line() > 0 ? ":" + r.line() : "") + ": " + r.suite() + " / " + r.name() + " [" + r.kind() + "]";
        return switch (r.status()) {
            case PASSED -> "PASS " + where;
            case SKIPPED -> "SKIP " + where + ": " + r.actual();
            case FAILED -> "FAIL " + where + ": expected " + r.expected() + ", got " + r.actual();
        };
    }

    private static String json(CaseResult r) {
        ObjectNode node = JSON.createObjectNode()
                .put("file", r.file()).put("line", r.line()).put("suite", r.suite()).put("kind", r.kind())
                .put("case", r.name()).put("status", r.status().name().toLowerCase(java.util.Locale.ROOT));
        if (r.expected() != null) {
            node.put("expected", r.expected());
        }
        if (r.actual() != null) {
            node.put(r.status() == CaseResult.Status.SKIPPED ? "reason" : "actual", r.actual());
        }
        return node.toString();
    }
}
