package dev.stockade.api.kernel.access;

/**
 * Which callers see a platform tool (spec: Authentication rule 2). A signed-in person and the installation owner see
 * every family but {@link #SELF} (so {@link #SPENDING_LIMITS} is theirs alone); an API token sees
 * {@link #DAY_TO_DAY}, and {@link #SANDBOX_ADMIN} where it is a project admin; a sandbox sees only {@link #SELF}.
 * Seeing a tool is not being allowed to run it: every call is still authorized against the action table, exactly as
 * the REST route is.
 */
public enum ToolFamily {
    /** Organizations and memberships: create, delete, halt, project members. */
    ORG_LIFECYCLE,
    /** Registering, syncing and promoting connectors. */
    CONNECTOR_MANAGEMENT,
    /** Day-to-day operations: projects, policies, sandboxes, credentials, audit. */
    DAY_TO_DAY,
    /** Creating and deleting sandboxes: the full sandbox tool set. */
    SANDBOX_ADMIN,
    /** Reading, setting and deleting spending limits: the spec lists them in a person's surface only. */
    SPENDING_LIMITS,
    /** What a running agent needs about itself: its own sandbox, its own spend and usage. */
    SELF
}
