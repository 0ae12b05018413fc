package dev.stockade.runtime.json;

import java.io.IOException;

/**
 * Why a JSON text was refused, with a one-line detail that names a position (byte offset, line and column,
 * or JSON pointer) and never quotes more than a clipped key of the input.
 */
public final class MalformedJson extends IOException {
    private static final long serialVersionUID = 1L;

    /** The kinds of refusal; each has a stable slug for problem answers. */
    public enum Reason {
        /** Nothing but whitespace. */
        EMPTY("empty-body"),
        /** Bytes that are not UTF-8, or an escaped surrogate without its pair. */
        INVALID_UNICODE("invalid-utf8"),
        /** Not JSON at all, or too deeply nested or too long for the reader's limits. */
        INVALID_JSON("invalid-json"),
        /** A complete value followed by more text. */
        TRAILING_CONTENT("trailing-content"),
        /** One object naming the same key twice. */
        DUPLICATE_KEY("duplicate-key"),
        /** Valid JSON, but not the object that was required. */
        NOT_AN_OBJECT("not-an-object");

        private final String slug;

        Reason(String slug) {
            this.slug = slug;
        }

        public String slug() {
            return slug;
        }
    }

    private final Reason reason;

    MalformedJson(Reason reason, String detail) {
        super(detail, null);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this; // a refusal of input, not a fault: no stack trace to keep or print
    }
}
