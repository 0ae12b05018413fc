package dev.stockade.api.kernel.access;

import static dev.stockade.api.kernel.access.Relation.*;

import java.util.EnumSet;
import java.util.Set;

/**
 * The authorization table: every action a route (REST now, MCP tools next) can perform, the scope its path names,
 * whether it waits for enrollment, and who may perform it. Routes declare their action with {@link Access}; no route
 * checks roles itself. Relations imply others: an org admin is also a member and an admin of every project of the
 * org; a project admin is also a project member; the installation owner is an admin of every organization.
 */
public enum Action {
    HEALTH(Scope.NONE, false, PUBLIC),
    INSTALLATION_READ(Scope.NONE, false, PUBLIC),
    INSTALLATION_ACTIVATE(Scope.NONE, false, PUBLIC),
    SETUP(Scope.NONE, false, PUBLIC),
    OAUTH_RELAY(Scope.NONE, false, PUBLIC),
    /** The sign-in provider's pages and endpoints and the discovery documents: reachable before enrollment. */
    SIGNIN(Scope.NONE, false, PUBLIC),
    PROBLEM_DOCS(Scope.NONE, false, PUBLIC),
    /**
     * The admin UI's page shell and static assets: they hold no data, so anyone may fetch them; every call the UI
     * makes goes to the REST API and is judged by this table like any other.
     */
    UI(Scope.NONE, false, PUBLIC),
    OPENAPI_READ(Scope.NONE, true, PUBLIC),
    PROJECT_KEYS_READ(Scope.PROJECT, true, PUBLIC),

    AUTH_ME(Scope.NONE, true, AUTHENTICATED),
    CLUSTER_TOKEN_ISSUE(Scope.NONE, true, SANDBOX_IDENTITY),
    ORG_CREATE(Scope.NONE, true, INSTALLATION_OWNER, ORG_CREATOR),
    ORG_LIST(Scope.NONE, true, INSTALLATION_OWNER, USER, Relation.ORG_API_TOKEN),
    INVITATIONS_MINE(Scope.NONE, true, USER),

    ORG_READ(Scope.ORG, true, ORG_MEMBER, Relation.ORG_API_TOKEN),
    ORG_UPDATE(Scope.ORG, true, ORG_ADMIN),
    ORG_DELETE(Scope.ORG, true, ORG_ADMIN),
    ORG_MEMBERS_READ(Scope.ORG, true, ORG_MEMBER),
    ORG_MEMBERS_WRITE(Scope.ORG, true, ORG_ADMIN),
    INVITATIONS_MANAGE(Scope.ORG, true, ORG_ADMIN),
    API_TOKENS_MANAGE(Scope.ORG, true, ORG_ADMIN),
    PROJECT_CREATE(Scope.ORG, true, ORG_ADMIN),
    PROJECT_LIST(Scope.ORG, true, ORG_MEMBER, Relation.ORG_API_TOKEN),
    HALT_READ(Scope.ORG, true, ORG_MEMBER, Relation.ORG_API_TOKEN),
    HALT_WRITE(Scope.ORG, true, ORG_ADMIN),
    AUDIT_READ(Scope.ORG, true, ORG_ADMIN, Relation.ORG_API_TOKEN),
    ORG_POLICIES_READ(Scope.ORG, true, ORG_MEMBER, Relation.ORG_API_TOKEN),
    ORG_POLICIES_WRITE(Scope.ORG, true, ORG_ADMIN),

    API_TOKEN_READ(Scope.API_TOKEN, true, ORG_ADMIN),
    API_TOKEN_REVOKE(Scope.API_TOKEN, true, ORG_ADMIN),

    PROJECT_READ(Scope.PROJECT, true, PROJECT_MEMBER),
    PROJECT_UPDATE(Scope.PROJECT, true, PROJECT_ADMIN),
    PROJECT_DELETE(Scope.PROJECT, true, ORG_ADMIN),
    PROJECT_ROTATE_KEYS(Scope.PROJECT, true, PROJECT_ADMIN),
    PROJECT_MEMBERS_READ(Scope.PROJECT, true, PROJECT_MEMBER),
    PROJECT_MEMBERS_WRITE(Scope.PROJECT, true, ORG_ADMIN),
    SANDBOX_TOKENS_MANAGE(Scope.PROJECT, true, PROJECT_ADMIN),
    PROJECT_POLICIES_READ(Scope.PROJECT, true, PROJECT_MEMBER),
    PROJECT_POLICIES_WRITE(Scope.PROJECT, true, PROJECT_ADMIN),
    SANDBOX_TOKEN_REVOKE(Scope.SANDBOX_TOKEN, true, PROJECT_ADMIN),

    // governance: policy bindings, effective policies, drift, credentials
    ORG_BINDINGS_READ(Scope.ORG, true, ORG_MEMBER, Relation.ORG_API_TOKEN),
    ORG_BINDINGS_WRITE(Scope.ORG, true, ORG_ADMIN),
    BINDING_DRIFT_READ(Scope.ORG, true, ORG_ADMIN, Relation.ORG_API_TOKEN),
    PROJECT_BINDINGS_READ(Scope.PROJECT, true, PROJECT_MEMBER),
    PROJECT_BINDINGS_WRITE(Scope.PROJECT, true, PROJECT_ADMIN),
    CREDENTIALS_READ(Scope.PROJECT, true, PROJECT_MEMBER),
    CREDENTIALS_WRITE(Scope.PROJECT, true, PROJECT_ADMIN),

    /** Replaying the trail under candidate policies (read-only): an org admin over the organization. */
    POLICY_IMPACT_ORG(Scope.ORG, true, ORG_ADMIN),
    /** The same over one project's trail: a project admin (and so an org admin). */
    POLICY_IMPACT_PROJECT(Scope.PROJECT, true, PROJECT_ADMIN),
    /** Drafting least privilege from the trail (read-only): who may replay it, over the organization. */
    POLICY_SUGGEST_ORG(Scope.ORG, true, ORG_ADMIN),
    /** The same over one project's trail: a project admin (and so an org admin). */
    POLICY_SUGGEST_PROJECT(Scope.PROJECT, true, PROJECT_ADMIN),

    // sandboxes
    SANDBOX_READ(Scope.PROJECT, true, PROJECT_MEMBER),
    SANDBOX_OPERATE(Scope.PROJECT, true, PROJECT_MEMBER),
    SANDBOX_WRITE(Scope.PROJECT, true, PROJECT_ADMIN),
    SANDBOX_EXEC(Scope.PROJECT, true, PROJECT_MEMBER),
    /** A request to a private exposed port through the ingress (not a route: {@code sandbox.ingress.IngressFilter}). */
    SANDBOX_INGRESS(Scope.PROJECT, false, PROJECT_MEMBER),

    // k8s slice: registered clusters (Connections), their tunnel token, the relay's tunnel and the cluster proxy
    CLUSTER_LIST(Scope.PROJECT, true, PROJECT_MEMBER),
    CLUSTER_CREATE(Scope.PROJECT, true, PROJECT_ADMIN),
    CLUSTER_READ(Scope.CLUSTER, true, PROJECT_MEMBER),
    CLUSTER_UPDATE(Scope.CLUSTER, true, PROJECT_ADMIN),
    CLUSTER_DELETE(Scope.CLUSTER, true, PROJECT_ADMIN),
    CLUSTER_ROTATE_TUNNEL_TOKEN(Scope.CLUSTER, true, PROJECT_ADMIN),
    AWS_CONNECTION_LIST(Scope.PROJECT, true, PROJECT_MEMBER),
    AWS_CONNECTION_CREATE(Scope.PROJECT, true, PROJECT_ADMIN),
    AWS_CONNECTION_READ(Scope.AWS_CONNECTION, true, PROJECT_MEMBER),
    AWS_CONNECTION_UPDATE(Scope.AWS_CONNECTION, true, PROJECT_ADMIN),
    AWS_CONNECTION_DELETE(Scope.AWS_CONNECTION, true, PROJECT_ADMIN),
    /** A sandbox reads assumed-role credentials for a connection its policy names (the container credentials URL). */
    AWS_CREDENTIALS_ISSUE(Scope.NONE, true, SANDBOX_IDENTITY),
    /** Only a cluster JWT of the cluster's project; every other kind of token gets 401 (spec: Authentication). */
    CLUSTER_PROXY(Scope.CLUSTER, true, PROJECT_CLUSTER),
    /** The relay's tunnel (long poll and answers), authenticated by the cluster's tunnel token in the route. */
    CLUSTER_RELAY_TUNNEL(Scope.CLUSTER, true, CLUSTER_RELAY),

    // the MCP endpoint (root paths): organization-wide for any identity, one project for its members and sandboxes;
    // what each caller may see and call there is decided per tool (mcp.ToolCatalog) by the actions below
    MCP(Scope.NONE, true, AUTHENTICATED),
    /** A sandbox reads its own record (an MCP tool only: the sandbox is the one its token was minted for). */
    SANDBOX_SELF_READ(Scope.NONE, true, SANDBOX_IDENTITY),
    PROJECT_MCP(Scope.PROJECT, true, PROJECT_MEMBER, PROJECT_SANDBOX),

    // connectors: upstream MCP servers registered in a project, their specs, and tool calls through them
    CONNECTORS_READ(Scope.PROJECT, true, PROJECT_MEMBER),
    CONNECTORS_WRITE(Scope.PROJECT, true, PROJECT_ADMIN),
    CONNECTOR_READ(Scope.CONNECTOR, true, PROJECT_MEMBER),
    CONNECTOR_WRITE(Scope.CONNECTOR, true, PROJECT_ADMIN),
    /** A tool call over REST; what the caller's policies grant decides which tools answer. */
    CONNECTOR_TOOLS_CALL(Scope.CONNECTOR, true, PROJECT_MEMBER, PROJECT_SANDBOX),
    PROJECT_TOOLS_CALL(Scope.PROJECT, true, PROJECT_MEMBER, PROJECT_SANDBOX),
    /** The operator-configured OAuth applications (never their client secrets). */
    OAUTH_APPLICATIONS_READ(Scope.PROJECT, true, PROJECT_ADMIN),
    /** Where the authorization server sends a person back; the single-use state authenticates it. */
    CONNECTOR_OAUTH_CALLBACK(Scope.NONE, true, PUBLIC),

    // spend: usage costs and spending limits (docs/spend.md); reading is observability, like the audit trail
    USAGE_READ(Scope.ORG, true, ORG_ADMIN, Relation.ORG_API_TOKEN),
    SPENDING_LIMITS_READ(Scope.ORG, true, ORG_ADMIN, Relation.ORG_API_TOKEN),
    /** Organization and project limits: an org admin only (spec: Limits, "Spending limits"). */
    SPENDING_LIMITS_WRITE(Scope.ORG, true, ORG_ADMIN),
    /** A sandbox's own cap, which a project admin (and so an org admin) reads and sets (spec: Limits). */
    SANDBOX_SPENDING_LIMIT_READ(Scope.PROJECT, true, PROJECT_ADMIN),
    SANDBOX_SPENDING_LIMIT_WRITE(Scope.PROJECT, true, PROJECT_ADMIN),
    /** A sandbox reads its own spend and usage (an MCP tool only: the sandbox its token was minted for). */
    SPEND_SELF_READ(Scope.NONE, true, SANDBOX_IDENTITY),

    // managed inference: the backends served, the organizations' keys and the /llm proxy (docs/inference.md)
    INFERENCE_PROVIDERS_READ(Scope.NONE, true, AUTHENTICATED),
    ORG_INFERENCE_PROVIDERS_READ(Scope.ORG, true, ORG_MEMBER, Relation.ORG_API_TOKEN, ORG_SANDBOX),
    /** An organization's inference keys: a signed-in org administrator only (spec: Authentication rule 3). */
    INFERENCE_KEYS_MANAGE(Scope.ORG, true, SIGNED_IN_ORG_ADMIN),
    /** A model call through {@code /projects/{projectId}/llm/...}. */
    LLM_CALL(Scope.PROJECT, true, PROJECT_MEMBER, PROJECT_SANDBOX),
    /** A model call through {@code /llm/...}: the route finds the caller's one project and authorizes LLM_CALL there. */
    LLM_CALL_UNSCOPED(Scope.NONE, true, AUTHENTICATED),

    // separate egress proxy replicas: their tokens (installation owner) and the feed they read
    PROXY_TOKENS_MANAGE(Scope.NONE, true, INSTALLATION_OWNER),
    /** The installation-wide audit entries (recorded in no organization): the installation owner only. */
    INSTALLATION_AUDIT_READ(Scope.NONE, true, INSTALLATION_OWNER),
    /** The proxy feed: only a proxy token reads it (it carries every sandbox's credentials). */
    EGRESS_FEED(Scope.NONE, true, EGRESS_PROXY),
    /** A replica's audit lines into the trail: only a proxy token writes them. */
    EGRESS_AUDIT_WRITE(Scope.NONE, true, EGRESS_PROXY);

    private final Scope scope;
    private final boolean gated;
    private final Set<Relation> allowed;

    Action(Scope scope, boolean gated, Relation first, Relation... rest) {
        this.scope = scope;
        this.gated = gated;
        this.allowed = EnumSet.of(first, rest);
    }

    public Scope scope() {
        return scope;
    }

    /** Whether the action waits for enrollment (503 {@code fleet_enrollment_required} until then). */
    public boolean gated() {
        return gated;
    }

    public Set<Relation> allowed() {
        return allowed;
    }

    public boolean isPublic() {
        return allowed.contains(PUBLIC);
    }

    /** Whether the route checks a cluster's tunnel token itself (the relay's tunnel), not a bearer identity. */
    public boolean tunnelTokenOnly() {
        return allowed.equals(EnumSet.of(CLUSTER_RELAY));
    }

    /**
     * Whether the caller's token may also arrive as an SDK's API key header ({@code x-api-key}, {@code api-key}):
     * model calls, whose official clients send their key there.
     */
    public boolean acceptsApiKeyHeader() {
        return this == LLM_CALL || this == LLM_CALL_UNSCOPED;
    }

    /** Whether only a cluster JWT may perform the action (the cluster proxy): other tokens get 401, not 403. */
    public boolean clusterTokenOnly() {
        return allowed.equals(EnumSet.of(PROJECT_CLUSTER));
    }
}
