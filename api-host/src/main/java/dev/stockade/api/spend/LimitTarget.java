package dev.stockade.api.spend;

import io.micronaut.core.annotation.Nullable;
import java.util.UUID;

/** What a spending limit caps: the organization, one of its projects, or one sandbox of a project. */
public record LimitTarget(String scope, @Nullable UUID projectId, @Nullable UUID sandboxId) {
    public static LimitTarget org() {
        return new LimitTarget("org", null, null);
    }

    public static LimitTarget project(UUID projectId) {
        return new LimitTarget("project", projectId, null);
    }

    public static LimitTarget sandbox(UUID projectId, UUID sandboxId) {
        return new LimitTarget("sandbox", projectId, sandboxId);
    }

    /** The id of the capped organization, project or sandbox. */
    UUID id(UUID orgId) {
        return sandboxId != null ? sandboxId : projectId != null ? projectId : orgId;
    }

    /** How messages name it: {@code the organization}, {@code project `<id>`} or {@code sandbox `<id>`}. */
    String describe(UUID orgId) {
        return scope.equals("org") ? "the organization" : scope + " `" + id(orgId) + "`";
    }
}
