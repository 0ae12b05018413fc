package dev.stockade.policy.compiler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.policy.model.PolicyReader;
import dev.stockade.policy.model.Problem;
import dev.stockade.policy.model.ReadResult;
import dev.stockade.policy.model.Severity;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link PolicyLint#lint} places analysis warnings and sorts them; {@link DescribeRows#columns} keeps columns apart. */
class LintAndDescribeColumnsTest {
    @Test
    void lintPlacesWarningsFromTheSourceMapAndSortsByPosition() {
        ReadResult read = PolicyReader.read("p.yaml", """
                name: p
                allowedDomains:
                  - pattern: "*.example.com"
                    verdict: allow
                  - pattern: api.example.com
                    verdict: allow
                """);
        List<Problem> problems = PolicyLint.lint(read);
        assertThat(problems).hasSize(1);
        Problem unreachable = problems.get(0);
        assertThat(unreachable.severity()).isEqualTo(Severity.WARNING);
        assertThat(unreachable.code()).isEqualTo("entry-unreachable");
        // the second entry starts on line 5 (its `- ` at column 3, its first key at column 5)
        assertThat(unreachable.line()).isEqualTo(5);
    }

    @Test
    void lintOfAnInvalidDocumentIsTheReadersProblemsOnly() {
        ReadResult read = PolicyReader.read("p.yaml", "name: p\nallowedDomainz: []\nzz: 1\n");
        List<Problem> problems = PolicyLint.lint(read);
        assertThat(problems).extracting(Problem::line).containsExactly(2, 3);
        assertThat(problems).allMatch(Problem::isError);
    }

    @Test
    void columnsJoinIntoTheCliRowAndKeepTwoSpacesInsideAColumn() {
        ReadResult read = PolicyReader.read("p.yaml", """
                name: p
                allowedDomains:
                  - pattern: github.com
                    verdict: allow
                    binaries: ["/opt/my  tool/bin/run"]
                """);
        var entry = read.policy().domains().get(0);
        DescribeRows.Columns c = DescribeRows.columns(entry);
        assertThat(c.callers()).isEqualTo("callers=/opt/my  tool/bin/run");
        assertThat(c.line()).isEqualTo(DescribeRows.row(entry))
                .isEqualTo("github.com  allow  */upstream  callers=/opt/my  tool/bin/run  rules=any");
    }
}
