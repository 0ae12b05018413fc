package dev.stockade.cli.testing;

/**
 * The outcome of one case of a policy test file.
 *
 * @param file     the test file as given on the command line (or found below a folder)
 * @param line     the line of the case in that file, 0 when unknown
 * @param suite    the suite's name
 * @param kind     the section: cases, validate, update, effective or describe
 * @param name     the case's name
 * @param expected what the case expected, one line; {@code null} when it passed
 * @param actual   what happened instead, one line; {@code null} when it passed
 */
public record CaseResult(
        String file, int line, String suite, String kind, String name, Status status, String expected, String actual) {

    /** Whether a case passed, failed, or could not run here. */
    public enum Status { PASSED, FAILED, SKIPPED }

    static CaseResult passed(CaseContext ctx) {
        return new CaseResult(ctx.file(), ctx.line(), ctx.suite(), ctx.kind(), ctx.name(), Status.PASSED, null, null);
    }

    static CaseResult failed(CaseContext ctx, String expected, String actual) {
        return new CaseResult(ctx.file(), ctx.line(), ctx.suite(), ctx.kind(), ctx.name(), Status.FAILED, expected, actual);
    }

    static CaseResult skipped(CaseContext ctx, String reason) {
        return new CaseResult(ctx.file(), ctx.line(), ctx.suite(), ctx.kind(), ctx.name(), Status.SKIPPED, null, reason);
    }

    /** Where a case stands: enough to name it in a result line. */
    record CaseContext(String file, int line, String suite, String kind, String name) {
    }
}
