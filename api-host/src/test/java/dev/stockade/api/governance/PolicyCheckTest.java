package dev.stockade.api.governance;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.governance.PolicyCheck.CheckedProblem;
import dev.stockade.policy.compiler.DescribeRows;
import dev.stockade.policy.model.Severity;
import org.junit.jupiter.api.Test;

/** The shape of a policy check: positions, the CLI's caret rendering, counts and describe rows. */
class PolicyCheckTest {
    private static final String MISTYPED = """
            name: web
            allowedDomains:
              - pattern: github.com
                verdict: alow
            """;

    @Test
    void aMistakeIsPlacedAndRenderedWithTheCaretUnderItsColumn() {
        PolicyCheck check = PolicyCheck.of(MISTYPED);
        assertThat(check.valid()).isFalse();
        assertThat(check.errors()).isEqualTo(1);
        assertThat(check.rows()).isEmpty();
        CheckedProblem p = check.problems().get(0);
        assertThat(p.severity()).isEqualTo(Severity.ERROR);
        assertThat(p.pointer()).isEqualTo("/allowedDomains/0/verdict");
        // the core places a bad value at its key: `verdict` starts at the 5th character of line 4
        assertThat(p.line()).isEqualTo(4);
        assertThat(p.column()).isEqualTo(5);
        String[] lines = p.rendered().split("\n");
        assertThat(lines[0]).startsWith("policy:4:5: error[").contains(p.message());
        assertThat(lines[1]).isEqualTo(" 4 |     verdict: alow");
        assertThat(lines[2]).isEqualTo("   |     ^");
    }

    @Test
    void aValidDocumentHasItsDescribeRowsAndLintWarnings() {
        PolicyCheck check = PolicyCheck.of("""
                name: web
                allowedDomains:
                  - pattern: github.com
                    verdict: allow
                  - pattern: api.example.com
                    verdict: allow
                    transport: direct
                    binaries: [/usr/bin/curl]
                    rules:
                      - method: GET
                        path: /v1/*
                  - pattern: "*.evil.test"
                    verdict: deny
                """);
        assertThat(check.valid()).isTrue();
        assertThat(check.errors()).isZero();
        assertThat(check.rows()).containsExactly(
                new DescribeRows.Columns("github.com", "allow", "*/upstream", "callers=any", "rules=any"),
                new DescribeRows.Columns("api.example.com", "allow", "*/direct", "callers=/usr/bin/curl",
                        "rules=GET /v1/*"),
                new DescribeRows.Columns("*.evil.test", "deny", "*/-", "callers=any", "rules=any"));
        // rules on a direct entry are never seen (no interception): lint warns, at the entry's rules
        assertThat(check.warnings()).isEqualTo(1);
        CheckedProblem warning = check.problems().get(0);
        assertThat(warning.severity()).isEqualTo(Severity.WARNING);
        assertThat(warning.code()).isEqualTo("rules-on-direct");
        assertThat(warning.line()).isGreaterThanOrEqualTo(5).isLessThanOrEqualTo(9);
        assertThat(warning.rendered()).startsWith("policy:" + warning.line() + ":" + warning.column() + ": warning[");
    }

    @Test
    void unreadableTextIsAProblemNotAFailure() {
        PolicyCheck check = PolicyCheck.of("name: [unclosed\n");
        assertThat(check.valid()).isFalse();
        assertThat(check.errors()).isPositive();
        assertThat(check.problems()).allSatisfy(p -> assertThat(p.rendered()).startsWith("policy"));
        assertThat(PolicyCheck.of(null).valid()).isFalse();
    }
}
