package dev.stockade.api.governance;

import dev.stockade.policy.compiler.DescribeRows;
import dev.stockade.policy.compiler.PolicyLint;
import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ProblemRenderer;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Severity;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.util.List;

/**
 * A policy document checked without saving it, so an editor (the admin UI, an agent) can show what {@code stockade
 * policy lint} would say while the author types: the core's problems with their place and the CLI's own rendering
 * (source line and caret), and for a valid document the describe rows of its domain entries.
 *
 * @param valid    whether a write of this document would pass the core's validation (warnings do not fail it)
 * @param errors   how many problems are errors
 * @param warnings how many are warnings (lint's analysis of a valid document)
 * @param problems every problem, by line and column
 * @param rows     the describe rows of {@code allowedDomains}, in first-match order; empty for an invalid document
 */
@Introspected
public record PolicyCheck(boolean valid, int errors, int warnings, List<CheckedProblem> problems,
                          List<DescribeRows.Columns> rows) {
    /** How the checked text is named in rendered problems (the CLI names the file). */
    static final String SOURCE = "policy";

    /**
     * One problem as lint reports it.
     *
     * @param line     1-based line in the checked text, null when the core has no position
     * @param column   1-based column, null when unknown
     * @param rendered the CLI's text for this problem: {@code policy:line:col: level[code]: message}, then the source
     *                 line and a caret under the column, then {@code = help:} when there is help
     */
    @Introspected
    public record CheckedProblem(String code, Severity severity, String pointer, @Nullable Integer line,
                                 @Nullable Integer column, String message, @Nullable String help, String rendered) {
        static CheckedProblem of(Problem p, String text) {
            return new CheckedProblem(p.code(), p.severity(), p.pointer(), p.line() > 0 ? p.line() : null,
                    p.column() > 0 ? p.column() : null, p.message(), p.help(),
                    ProblemRenderer.human(List.of(p), SOURCE, text));
        }
    }

    /** Reads and lints {@code text} (YAML or JSON) with the core, exactly as the CLI's lint does. */
    static PolicyCheck of(String text) {
        String body = text == null ? "" : text;
        ReadResult read = PolicyReader.read(SOURCE, body);
        List<Problem> problems = PolicyLint.lint(read);
        int errors = (int) problems.stream().filter(Problem::isError).count();
        List<DescribeRows.Columns> rows = read.valid()
                ? read.policy().domains().stream().map(DescribeRows::columns).toList() : List.of();
        return new PolicyCheck(read.valid(), errors, problems.size() - errors,
                problems.stream().map(p -> CheckedProblem.of(p, body)).toList(), rows);
    }
}
