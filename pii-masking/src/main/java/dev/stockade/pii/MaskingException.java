package dev.stockade.pii;

/**
 * A request could not be masked. The kind tells the proxy what happened without parsing a message, and the
 * message never quotes the text being masked.
 */
public final class MaskingException extends Exception {

    /** Why masking failed. */
    public enum Kind {
        /** The body is not JSON of the expected wire format. */
        INVALID_BODY,
        /** The worker took longer than the caller allowed. */
        TIMEOUT,
        /** The worker queue is full; the worker itself is alive. */
        OVERLOADED,
        /** The worker is gone (pool shut down, process exited); every request fails until it is replaced. */
        WORKER_DEAD,
        /** A recogniser failed on this request. */
        INTERNAL
    }

    private final Kind kind;

    public MaskingException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public MaskingException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** Why masking failed. */
    public Kind kind() {
        return kind;
    }
}
