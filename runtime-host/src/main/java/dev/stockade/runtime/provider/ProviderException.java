package dev.stockade.runtime.provider;

/**
 * A provider call that failed. The message is written by the runtime, never copied from the
 * provider's body, so it carries no prompt content, URL or credential.
 */
public final class ProviderException extends Exception {
    private static final long serialVersionUID = 1L;
    private final int status;
    private final boolean retryable;

    public ProviderException(String message, int status, boolean retryable) {
        super(message, null, false, false);
        this.status = status;
        this.retryable = retryable;
    }

    /** The HTTP status (0 when the failure was not an HTTP answer). */
    public int status() {
        return status;
    }

    /** Whether a retry with backoff may succeed (429, 5xx, a connection failure before any byte). */
    public boolean retryable() {
        return retryable;
    }
}
