package dev.stockade.api.kernel.access;

/** What a route's path names, from which the caller's relations are computed. */
public enum Scope {
    /** Nothing in the path: installation-wide. */
    NONE(null),
    ORG("orgId"),
    PROJECT("projectId"),
    API_TOKEN("tokenId"),
    SANDBOX_TOKEN("id"),

    // k8s slice: a registered cluster (its project and organization come from the clusters table)
    CLUSTER("clusterId"),

    /** An AWS connection: its project and organization come from its row. */
    AWS_CONNECTION("connectionId"),

    /** A registered connector (an upstream MCP server or HTTP API): its project and organization come from its row. */
    CONNECTOR("serverId");

    private final String variable;

    Scope(String variable) {
        this.variable = variable;
    }

    /** The path variable naming the resource, or null. */
    public String variable() {
        return variable;
    }
}
