package dev.stockade.api.audit;

import dev.stockade.api.identity.Identity;
import io.micronaut.core.annotation.Nullable;
import java.util.Map;
import java.util.UUID;

/**
 * One entry of the audit trail as a feature reports it: which organization (null for installation-wide events),
 * optionally which project, what kind of thing and action, who, on what, and how it ended. {@code details} must not
 * hold a secret.
 */
public record AuditEvent(@Nullable UUID orgId, @Nullable UUID projectId, String kind, String action, boolean read,
                         String outcome, String actorType, @Nullable String actorId, @Nullable String target,
                         Map<String, Object> details) {

    public AuditEvent {
        details = details == null ? Map.of() : Map.copyOf(details);
    }

    /** A successful write by {@code actor}. */
    public static AuditEvent write(Identity actor, UUID orgId, UUID projectId, String kind, String action,
                                   String target, Map<String, Object> details) {
        return new AuditEvent(orgId, projectId, kind, action, false, "success", actor.type(), actor.actorId(),
                target, details);
    }
}
