package dev.stockade.api.tenancy;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.UUID;

/** An organization: the tenant. Halt state lives on its row. */
@MappedEntity("organizations")
public record Organization(@Id UUID id, String name, boolean halted, @Nullable Instant haltedAt,
                           @Nullable String haltedBy, Instant createdAt) {
}
