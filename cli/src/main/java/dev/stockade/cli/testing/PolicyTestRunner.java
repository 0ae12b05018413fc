package dev.stockade.cli.testing;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.policy.model.Documents;
import dev.stockade.policy.model.ParsedDocument;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.Severity;
import dev.stockade.policy.model.SourceFiles;
import dev.stockade.policy.model.SourcePosition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * Runs policy test files (FORMAT.md): the engine behind {@code stockade policy test} and the
 * conformance suite. Files are checked against the format before any case runs.
 */
public final class PolicyTestRunner {
    private final CoverageRecorder coverage = new CoverageRecorder();

    /**
     * What the decision cases of every {@link #run} of this runner reached so far ({@code policy test --coverage}):
     * entries, rules and GraphQL fences of the policies they resolved.
     */
    public CoverageReport coverage() {
        return coverage.report();
    }

    /** Runs every suite of every file below {@code paths}; never throws for user mistakes. */
    public TestReport run(List<Path> paths) {
        List<CaseResult> results = new ArrayList<>();
        List<FormatError> errors = new ArrayList<>();
        for (Path path : paths) {
            for (Path file : testFiles(path, errors)) {
                runFile(file, results, errors);
            }
        }
        return new TestReport(results, errors);
    }

    private static List<Path> testFiles(Path path, List<FormatError> errors) {
        if (Files.isRegularFile(path)) {
            return List.of(path);
        }
        if (!Files.isDirectory(path)) {
            errors.add(new FormatError(path.toString(), 0, 0, "no such file or folder"));
            return List.of();
        }
        try (Stream<Path> walk = Files.walk(path)) {
            return walk.filter(Files::isRegularFile)
                    .filter(p -> p.toString().endsWith(".yaml") || p.toString().endsWith(".yml"))
                    .filter(PolicyTestRunner::isTestFile)
                    .sorted()
                    .toList();
        } catch (IOException | RuntimeException e) {
            errors.add(new FormatError(path.toString(), 0, 0, "cannot list folder: " + e.getMessage()));
            return List.of();
        }
    }

    /**
     * Below a folder, a YAML file is a test file when one of its documents has a top-level
     * {@code name} with a suite section; plain policy files referenced by tests are skipped.
     */
    private static boolean isTestFile(Path file) {
        SourceFiles.Loaded loaded = SourceFiles.read(file);
        if (!(loaded instanceof SourceFiles.Text text)) {
            return true; // let runFile report why it cannot be read
        }
        try {
            for (ParsedDocument doc : Documents.parseAll(file.toString(), text.text())) {
                JsonNode root = doc.root();
                if (root == null || !root.isObject()) {
                    continue;
                }
                for (String section : List.of("cases", "validate", "update", "effective", "describe", "spend",
                        "reservation", "connectorReach", "suggest")) {
                    if (root.has(section)) {
                        return true;
                    }
                }
            }
            return false;
        } catch (RuntimeException e) {
            return true; // let runFile report why it cannot be read
        }
    }

    private void runFile(Path file, List<CaseResult> results, List<FormatError> errors) {
        String display = file.toString();
        SourceFiles.Loaded loaded = SourceFiles.read(file);
        if (loaded instanceof SourceFiles.Unreadable u) {
            errors.add(new FormatError(display, u.line(), u.column(), "cannot read: " + u.reason()));
            return;
        }
        String text = ((SourceFiles.Text) loaded).text();
        for (ParsedDocument doc : Documents.parseAll(display, text)) {
            if (reportParseProblems(doc, errors) || doc.root() == null || doc.root().isNull()) {
                continue;
            }
            List<FormatError> shapeErrors = new ArrayList<>();
            Shape.suite().check(doc.root(), "", (pointer, message) -> shapeErrors.add(at(doc, pointer, message)));
            if (!shapeErrors.isEmpty()) {
                errors.addAll(shapeErrors);
                continue;
            }
            new SuiteRun(file, doc, errors, coverage).run(results);
        }
    }

    private static boolean reportParseProblems(ParsedDocument doc, List<FormatError> errors) {
        boolean any = false;
        for (Problem problem : doc.problems()) {
            if (problem.severity() == Severity.ERROR) {
                errors.add(new FormatError(doc.sourceName(), problem.line(), problem.column(), problem.message()));
                any = true;
            }
        }
        return any;
    }

    static FormatError at(ParsedDocument doc, String pointer, String message) {
        SourcePosition pos = doc.sourceMap().nearest(pointer);
        return new FormatError(doc.sourceName(), pos == null ? 0 : pos.line(), pos == null ? 0 : pos.column(), message);
    }
}
