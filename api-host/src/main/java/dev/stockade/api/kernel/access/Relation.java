package dev.stockade.api.kernel.access;

/** How a caller stands to the resource a route acts on; {@link Action} lists the relations that may perform it. */
public enum Relation {
    /** Anyone, without a token. */
    PUBLIC,
    /** Any identity but a cluster token (which only the cluster proxy accepts). */
    AUTHENTICATED,
    /** The installation owner's token: administrator of every organization. */
    INSTALLATION_OWNER,
    /** A person whose verified address is in {@code config.ownerEmails}. */
    ORG_CREATOR,
    /** A signed-in person (not a token). */
    USER,
    /** A sandbox token. */
    SANDBOX_IDENTITY,
    ORG_ADMIN,
    /** An organization administrator signed in as a person: not the owner's token, not an API token. */
    SIGNED_IN_ORG_ADMIN,
    ORG_MEMBER,
    /** An API token of the organization. */
    ORG_API_TOKEN,
    PROJECT_ADMIN,
    PROJECT_MEMBER,
    /** A sandbox or cluster token of a project of the organization. */
    ORG_SANDBOX,
    /** A sandbox token of the project. */
    PROJECT_SANDBOX,
    /** A cluster JWT of the project. */
    PROJECT_CLUSTER,

    // k8s slice
    /** A cluster's relay, by its tunnel token: checked by the relay routes themselves, never a bearer identity. */
    CLUSTER_RELAY,

    /** A separate egress proxy replica, by its proxy token: reads the proxy feed and nothing else. */
    EGRESS_PROXY
}
