package dev.stockade.cli;

import dev.stockade.policy.model.TerminalText;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stockade.cli.testing.CaseResult;
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
                "Exit status: 0 all passed, 1 a case failed, 2 a file could not be read or is malformed."})
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

    @Override
    public Integer call() {
        TestReport report = new PolicyTestRunner().run(paths);
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
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
        if (format == OutputFormat.json) {
            out.println(JSON.createObjectNode().put("passed", report.passed()).put("failed", report.failed())
                    .put("skipped", report.skipped()).put("malformed", report.formatErrors().size()));
        } else {
            out.println(report.summary());
        }
        out.flush();
        err.flush();
        return report.exitCode();
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
