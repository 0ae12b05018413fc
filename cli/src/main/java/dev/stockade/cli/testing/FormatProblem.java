package dev.stockade.cli.testing;

/** A case that does not follow FORMAT.md (or names a policy that cannot be used): exit 2, with a position. */
final class FormatProblem extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final String pointer;

    FormatProblem(String pointer, String message) {
        super(message, null, false, false);
        this.pointer = pointer;
    }

    String pointer() {
        return pointer;
    }
}
