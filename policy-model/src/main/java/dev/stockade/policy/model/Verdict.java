package dev.stockade.policy.model;

/** The verdict of a domain entry or of the network default. */
public enum Verdict {
    /** The connection or request may go out. */
    ALLOW("allow"),
    /** The connection or request is refused. */
    DENY("deny");

    private final String wire;

    Verdict(String wire) {
        this.wire = wire;
    }

    /** The value as written in a policy document. */
    public String wire() {
        return wire;
    }

    /** The verdict written as {@code text}, or {@code null} if the text names none. */
    public static Verdict fromWire(String text) {
        return WireEnums.lookup(values(), Verdict::wire, text);
    }
}
