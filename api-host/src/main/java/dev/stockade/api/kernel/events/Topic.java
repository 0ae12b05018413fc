package dev.stockade.api.kernel.events;

import java.util.Arrays;
import java.util.Optional;

/** The closed list of event topics replicas tell each other about, each with the slug stored in the events table. */
public enum Topic {
    /** An organization was halted or its halt lifted ({@code {"halted": bool}}). */
    HALT("halt"),
    /** A sandbox's compiled policy set changed (proxies re-read their feed). */
    ENFORCEMENT("enforcement"),
    /** A policy, binding or credential changed in an organization or project. */
    GOVERNANCE("governance"),
    /** Membership or roles changed. */
    ACCESS("access"),
    /** A proxy token was revoked (its open feeds close). */
    PROXY_TOKEN("proxy-token"),
    /** A connector was registered, synced, promoted or deleted. */
    CONNECTOR("connector");

    private final String slug;

    Topic(String slug) {
        this.slug = slug;
    }

    public String slug() {
        return slug;
    }

    /** The topic of a stored slug; empty for one this replica does not know (written by a newer version). */
    public static Optional<Topic> of(String slug) {
        return Arrays.stream(values()).filter(t -> t.slug.equals(slug)).findFirst();
    }
}
