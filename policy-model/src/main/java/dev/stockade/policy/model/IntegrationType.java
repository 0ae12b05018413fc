package dev.stockade.policy.model;

/** The kind of a cluster or cloud integration a policy grants. */
public enum IntegrationType {
    /** A Kubernetes cluster. */
    KUBERNETES("kubernetes"),
    /** An AWS account connection. */
    AWS_CONNECTION("aws-connection");

    private final String wire;

    IntegrationType(String wire) {
        this.wire = wire;
    }

    /** The value as written in a policy document. */
    public String wire() {
        return wire;
    }

    /** The integration type written as {@code text}, or {@code null} if the text names none. */
    public static IntegrationType fromWire(String text) {
        return WireEnums.lookup(values(), IntegrationType::wire, text);
    }
}
