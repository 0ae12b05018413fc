package dev.stockade.api.kernel.audit;

import io.micronaut.core.annotation.Nullable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;

/**
 * One entry of the audit trail as a feature reports it: which organization (null for installation-wide events),
 * optionally which project, what kind of thing and action, who, on what, and how it ended. {@code details} must not
 * hold a secret. Built only through {@link #of} (an architecture test holds every other class to it), so every
 * entry has a kind from the closed list, an actor and an outcome.
 */
public record AuditEvent(@Nullable UUID orgId, @Nullable UUID projectId, AuditKind kind, String action, boolean read,
                         AuditOutcome outcome, String actorType, @Nullable String actorId, @Nullable String target,
                         Map<String, Object> details) {

    public AuditEvent {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(actorType, "actorType");
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    /** Starts an entry of {@code kind} for {@code action}; a write that succeeded unless told otherwise. */
    public static Builder of(AuditKind kind, String action) {
        return new Builder(kind, action);
    }

    /** The fluent fields of one entry; {@link #build} makes the entry. */
    public static final class Builder {
        private final AuditKind kind;
        private final String action;
        private UUID orgId;
        private UUID projectId;
        private boolean read;
        private AuditOutcome outcome = AuditOutcome.SUCCESS;
        private Actor actor;
        private String target;
        private final Map<String, Object> details = new LinkedHashMap<>();

        private Builder(AuditKind kind, String action) {
            this.kind = kind;
            this.action = action;
        }

        /** The organization the entry is recorded in (null: installation-wide). */
        public Builder org(@Nullable UUID orgId) {
            this.orgId = orgId;
            return this;
        }

        public Builder project(@Nullable UUID projectId) {
            this.projectId = projectId;
            return this;
        }

        /** Who acted. */
        public Builder by(Actor actor) {
            this.actor = actor;
            return this;
        }

        public Builder target(@Nullable String target) {
            this.target = target;
            return this;
        }

        public Builder outcome(AuditOutcome outcome) {
            this.outcome = outcome;
            return this;
        }

        /** Marks the entry as a read (filtered out by {@code excludeReads}). */
        public Builder read(boolean read) {
            this.read = read;
            return this;
        }

        /** Adds the details (no secret); a null map adds nothing. */
        public Builder details(@Nullable Map<String, ?> more) {
            if (more != null) {
                details.putAll(more);
            }
            return this;
        }

        public Builder detail(String key, @Nullable Object value) {
            if (value != null) {
                details.put(key, value);
            }
            return this;
        }

        /** The entry; an entry without an actor is refused (every entry names who acted). */
        public AuditEvent build() {
            Objects.requireNonNull(actor, "an audit entry names its actor");
            return new AuditEvent(orgId, projectId, kind, action, read, outcome, actor.type(), actor.actorId(), target,
                    details);
        }
    }
}
