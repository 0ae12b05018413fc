package dev.stockade.api.sandbox;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/** A sandbox row with its active revision's configuration. */
public record Sandbox(UUID id, UUID orgId, UUID projectId, String name, String slug, String state, String detail,
                      String stoppedBy, int activeRevision, Integer previousRevision, Duration autoStop,
                      Duration autoDelete, boolean autoStart, UUID tokenId, String tokenSealed,
                      Instant lastActivityAt, Instant stateChangedAt, Instant createdAt, Instant updatedAt,
                      SandboxConfig config) {

    /** The states of the spec's table. */
    public static final String CREATING = "creating";
    public static final String STARTING = "starting";
    public static final String RUNNING = "running";
    public static final String STOPPED = "stopped";
    public static final String ERROR = "error";

    SandboxBody.Timers timers() {
        return new SandboxBody.Timers(autoStop, autoDelete, autoStart);
    }

    @Override
    public String toString() {
        return "Sandbox[" + id + ", " + name + ", " + state + "]"; // never the sealed token
    }
}
