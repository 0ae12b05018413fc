package dev.stockade.api.sandbox;

import dev.stockade.api.kernel.audit.Actor;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** A sandbox row with its active revision's configuration. */
public record Sandbox(UUID id, UUID orgId, UUID projectId, String name, String slug, SandboxState state, String detail,
                      String stoppedBy, int activeRevision, Integer previousRevision, Duration autoStop,
                      Duration autoDelete, boolean autoStart, UUID tokenId, String tokenSealed,
                      Instant lastActivityAt, Instant stateChangedAt, Instant createdAt, Instant updatedAt,
                      SandboxConfig config) {

    /** An audit entry about this sandbox: recorded in its organization and project, under its id. */
    public AuditEvent.Builder event(String action, Actor by) {
        return AuditEvent.of(AuditKind.SANDBOX, action).by(by).org(orgId).project(projectId).target(id.toString());
    }

    SandboxBody.Timers timers() {
        return new SandboxBody.Timers(autoStop, autoDelete, autoStart);
    }

    @Override
    public String toString() {
        return "Sandbox[" + id + ", " + name + ", " + state + "]"; // never the sealed token
    }
}
