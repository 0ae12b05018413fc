package dev.stockade.api.sandbox;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Response bodies of the sandbox routes and tools, so the OpenAPI document describes them. Never the sandbox's token.
 * A field marked {@code NON_NULL} is left out when it has no value (as the API always answered); the others are
 * written as {@code null}.
 */
public final class SandboxViews {
    private SandboxViews() {
    }

    /** A sandbox with its active revision's configuration and its timers. */
    @Introspected
    public record SandboxView(UUID id, UUID orgId, UUID projectId, String name, String slug, String state,
                              @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String detail,
                              @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String stoppedBy,
                              int activeRevision, String cpu, String memory,
                              @JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String image,
                              List<UUID> policies, List<UUID> credentials, @Nullable JsonNode policy,
                              List<SandboxConfig.Port> ports, @Nullable String autoStop, @Nullable String autoDelete,
                              boolean autoStart, Instant lastActivityAt, Instant createdAt, Instant updatedAt) {
    }

    /** One revision of a sandbox; {@code provisioned} is null until a provisioner recorded what it made of it. */
    @Introspected
    public record RevisionView(int revision, boolean active, JsonNode config, @Nullable JsonNode provisioned,
                               String createdBy, Instant createdAt) {
    }

    /** For each exposed port, whether something in the sandbox accepts connections on it now. */
    @Introspected
    public record PortReadinessView(String state, List<PortReadiness.Ready> ports) {
    }

    /** What the sandbox has now (the core's resolution) and what its active revision was provisioned with. */
    @Introspected
    public record EffectivePolicyView(UUID sandboxId, int revision, dev.stockade.api.governance.Effective.View current,
                                      @Nullable JsonNode provisioned) {
    }

    /** A project's sandboxes. */
    @Introspected
    public record Sandboxes(List<SandboxView> items) {
    }

    /** A sandbox's revisions, newest first. */
    @Introspected
    public record Revisions(List<RevisionView> items) {
    }

    static SandboxView of(Sandbox s) {
        SandboxConfig c = s.config();
        return new SandboxView(s.id(), s.orgId(), s.projectId(), s.name(), s.slug(), s.state().slug(),
                s.detail().isEmpty() ? null : s.detail(),
                s.stoppedBy() != null && s.state() == SandboxState.STOPPED ? s.stoppedBy() : null,
                s.activeRevision(), c.cpu(), c.memory(), c.image(), c.policies(), c.credentials(), c.policy(),
                c.ports(), s.autoStop() == null ? null : Quantities.text(s.autoStop()),
                s.autoDelete() == null ? null : Quantities.text(s.autoDelete()), s.autoStart(), s.lastActivityAt(),
                s.createdAt(), s.updatedAt());
    }

    static Sandboxes page(List<Sandbox> sandboxes) {
        return new Sandboxes(sandboxes.stream().map(SandboxViews::of).toList());
    }

    static Revisions revisions(List<SandboxStore.Revision> rows, int active) {
        return new Revisions(rows.stream().map(r -> new RevisionView(r.revision(), r.revision() == active,
                r.config(), r.provisioned(), r.createdBy(), r.createdAt())).toList());
    }
}
