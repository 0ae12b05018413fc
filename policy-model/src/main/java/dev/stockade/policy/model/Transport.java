package dev.stockade.policy.model;

/** How an allowed connection leaves the sandbox: through the platform, or spliced without interception. */
public enum Transport {
    /** Through the platform, intercepted so that rules and credentials apply. */
    UPSTREAM("upstream"),
    /** Spliced to the destination without interception. */
    DIRECT("direct");

    private final String wire;

    Transport(String wire) {
        this.wire = wire;
    }

    /** The value as written in a policy document. */
    public String wire() {
        return wire;
    }

    /** The transport written as {@code text}, or {@code null} if the text names none. */
    public static Transport fromWire(String text) {
        return WireEnums.lookup(values(), Transport::wire, text);
    }
}
