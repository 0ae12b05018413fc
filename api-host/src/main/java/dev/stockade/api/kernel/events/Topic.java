package dev.stockade.api.kernel.events;

import dev.stockade.api.kernel.Slugged;
import java.util.Optional;

/** The closed list of event topics replicas tell each other about, each with the slug stored in the events table. */
public enum Topic implements Slugged {
    /** An organization was halted or its halt lifted ({@code {"halted": bool}}). */
    HALT,
    /** A sandbox's compiled policy set changed (proxies re-read their feed). */
    ENFORCEMENT,
    /** A policy, binding or credential changed in an organization or project. */
    GOVERNANCE,
    /** Membership or roles changed. */
    ACCESS,
    /** A proxy token was revoked (its open feeds close). */
    PROXY_TOKEN,
    /** A connector was registered, synced, promoted or deleted. */
    CONNECTOR;

    /** The topic of a stored slug; empty for one this replica does not know (written by a newer version). */
    public static Optional<Topic> of(String slug) {
        return Slugged.parse(Topic.class, slug);
    }
}
