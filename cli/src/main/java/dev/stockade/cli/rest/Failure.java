package dev.stockade.cli.rest;

/** A failure reported as one line ({@code stockade: <message>}) with its exit status; never a stack trace. */
public final class Failure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int exit;

    private Failure(int exit, String message) {
        super(message, null, false, false);
        this.exit = exit;
    }

    /** Usage, unreadable input, no credentials, unreachable platform: exit {@link Exit#USAGE}. */
    public static Failure usage(String message) {
        return new Failure(Exit.USAGE, message);
    }

    /** The platform refused what was asked without a problem details body (an exec socket's close): exit {@link Exit#REFUSED}. */
    public static Failure refused(String message) {
        return new Failure(Exit.REFUSED, message);
    }

    /** An answer that is not the platform's: exit {@link Exit#UNEXPECTED}. */
    public static Failure unexpected(String message) {
        return new Failure(Exit.UNEXPECTED, message);
    }

    public int exit() {
        return exit;
    }
}
