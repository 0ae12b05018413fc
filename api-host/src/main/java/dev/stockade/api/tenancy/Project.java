package dev.stockade.api.tenancy;

import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.UUID;

/** A project of an organization: where sandboxes, policies and credentials live. */
@MappedEntity("projects")
public record Project(@Id UUID id, UUID orgId, String name, String description, Instant createdAt) {
}
