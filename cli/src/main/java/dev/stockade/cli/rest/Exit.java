package dev.stockade.cli.rest;

/** The exit statuses of the REST commands (docs/cli.md lists them). */
public final class Exit {
    /** The request succeeded. */
    public static final int OK = 0;
    /** The platform refused the request: it answered 4xx or 5xx (a problem details body, rendered for people). */
    public static final int REFUSED = 1;
    /** Usage error, unreadable input file, not signed in, or the platform could not be reached. */
    public static final int USAGE = 2;
    /** The server answered, but not as the platform does (not JSON, or an unexpected status). */
    public static final int UNEXPECTED = 3;

    private Exit() {
    }
}
