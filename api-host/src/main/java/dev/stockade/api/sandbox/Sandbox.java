package dev.stockade.api.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** A sandbox row with its active revision's configuration. */
public record Sandbox(UUID id, UUID orgId, UUID projectId, String name, String slug, SandboxState state, String detail,
                      String stoppedBy, int activeRevision, Integer previousRevision, Duration autoStop,
                      Duration autoDelete, boolean autoStart, UUID tokenId, String tokenSealed,
                      Instant lastActivityAt, Instant stateChangedAt, Instant createdAt, Instant updatedAt,
                      SandboxConfig config) {

    SandboxBody.Timers timers() {
        return new SandboxBody.Timers(autoStop, autoDelete, autoStart);
    }

    @Override
    public String toString() {
        return "Sandbox[" + id + ", " + name + ", " + state + "]"; // never the sealed token
    }
}
