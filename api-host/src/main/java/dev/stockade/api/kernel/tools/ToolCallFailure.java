package dev.stockade.api.kernel.tools;

/** A granted tool's call that produced no result; the message is safe to show the caller (no credential). */
public final class ToolCallFailure extends Exception {
    /** Why the call failed, which decides the problem code and the audit outcome. */
    public enum Kind {
        /** The organization is halted: the call was refused or cancelled in flight. */
        HALTED,
        /** The caller's arguments do not fit the tool. */
        INVALID_ARGUMENTS,
        /** The upstream failed or answered something that is not a tool result. */
        UPSTREAM_FAILED
    }

    private final Kind kind;

    public ToolCallFailure(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
