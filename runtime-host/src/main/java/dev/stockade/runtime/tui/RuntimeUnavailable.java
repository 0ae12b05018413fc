package dev.stockade.runtime.tui;

/**
 * A call to the runtime that did not give the answer asked for: the runtime cannot be reached, refused the request
 * (its problem's detail), or answered with something that is not its API. The message is one line for people, and
 * no stack trace is kept: it is never printed.
 */
final class RuntimeUnavailable extends Exception {
    private static final long serialVersionUID = 1L;

    RuntimeUnavailable(String message) {
        super(message, null, false, false);
    }
}
