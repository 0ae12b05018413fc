package dev.stockade.policy.model;

/** The verdict of a domain entry or of the network default. */
public enum Verdict {
    ALLOW("allow"),
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
