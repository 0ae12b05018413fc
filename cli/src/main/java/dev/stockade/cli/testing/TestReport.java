package dev.stockade.cli.testing;

import java.util.List;

/** Everything one run of the policy test runner found. */
public record TestReport(List<CaseResult> results, List<FormatError> formatErrors) {

    public TestReport {
        results = List.copyOf(results);
        formatErrors = List.copyOf(formatErrors);
    }

    public long passed() {
        return count(CaseResult.Status.PASSED);
    }

    public long failed() {
        return count(CaseResult.Status.FAILED);
    }

    public long skipped() {
        return count(CaseResult.Status.SKIPPED);
    }

    private long count(CaseResult.Status status) {
        return results.stream().filter(r -> r.status() == status).count();
    }

    /** FORMAT.md: 2 when a file could not be read or is malformed, else 1 when a case failed, else 0. */
    public int exitCode() {
        if (!formatErrors.isEmpty()) {
            return 2;
        }
        return failed() > 0 ? 1 : 0;
    }

    /** The closing line: {@code N passed, N failed} and {@code , N skipped} when any were skipped. */
    public String summary() {
        String line = passed() + " passed, " + failed() + " failed";
        return skipped() > 0 ? line + ", " + skipped() + " skipped" : line;
    }
}
