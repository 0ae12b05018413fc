package dev.stockade.api.kernel.audit;

import io.micronaut.core.annotation.Nullable;

/** Who an audit entry names as having acted: an identity, or the platform itself. */
public interface Actor {
    /** The platform acting on its own (timers, reconciliation); it has no id. */
    Actor PLATFORM = new Actor() {
        @Override
        public String type() {
            return "platform";
        }

        @Override
        public String actorId() {
            return null;
        }
    };

    /** The actor's kind, as the trail names it ({@code user}, {@code api-token}, ...). */
    String type();

    /** A stable id of the actor, or null for the platform. */
    @Nullable
    String actorId();

    /** An actor known only by its kind and id (an entry recorded for another component, such as a proxy). */
    static Actor of(String type, @Nullable String id) {
        return new Named(type, id);
    }

    /** An actor by name only. */
    record Named(String type, @Nullable String actorId) implements Actor {
    }
}
