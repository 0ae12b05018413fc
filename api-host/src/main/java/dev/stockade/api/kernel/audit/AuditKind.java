package dev.stockade.api.kernel.audit;

import dev.stockade.api.kernel.Slugged;

/** What an audit entry is about: the closed list of kinds the trail holds, each with the slug stored and filtered on. */
public enum AuditKind implements Slugged {
    /** A request the authorization table refused (403, or 404 across tenants): REST routes and WebSocket handshakes. */
    ACCESS,
    API_TOKEN,
    /** An AWS connection written, or credentials for it served to (or refused to) a sandbox. */
    AWS_CONNECTION,
    CLUSTER,
    CLUSTER_PROXY,
    CONNECTOR,
    CONNECTOR_CREDENTIAL,
    CREDENTIAL,
    EGRESS,
    HALT,
    INFERENCE,
    INFERENCE_KEY,
    INVITATION,
    ORG_MEMBER,
    ORGANIZATION,
    POLICY,
    POLICY_BINDING,
    PROJECT,
    PROJECT_KEY,
    PROJECT_MEMBER,
    PROXY_TOKEN,
    SANDBOX,
    SANDBOX_TOKEN,
    SESSION,
    SPENDING_LIMIT,
    TOOL_CALL;
}
