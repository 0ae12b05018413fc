package dev.stockade.api.kernel.audit;

/** What an audit entry is about: the closed list of kinds the trail holds, each with the slug stored and filtered on. */
public enum AuditKind {
    API_TOKEN("api-token"),
    CLUSTER("cluster"),
    CLUSTER_PROXY("cluster-proxy"),
    CONNECTOR("connector"),
    CONNECTOR_CREDENTIAL("connector-credential"),
    CREDENTIAL("credential"),
    EGRESS("egress"),
    HALT("halt"),
    INFERENCE("inference"),
    INFERENCE_KEY("inference-key"),
    INVITATION("invitation"),
    ORG_MEMBER("org-member"),
    ORGANIZATION("organization"),
    POLICY("policy"),
    POLICY_BINDING("policy-binding"),
    PROJECT("project"),
    PROJECT_KEY("project-key"),
    PROJECT_MEMBER("project-member"),
    PROXY_TOKEN("proxy-token"),
    SANDBOX("sandbox"),
    SANDBOX_TOKEN("sandbox-token"),
    SESSION("session"),
    SPENDING_LIMIT("spending-limit"),
    TOOL_CALL("tool-call");

    private final String slug;

    AuditKind(String slug) {
        this.slug = slug;
    }

    /** The kind as the trail stores it and {@code ?kind=} filters it. */
    public String slug() {
        return slug;
    }
}
