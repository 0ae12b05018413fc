package dev.stockade.api.kernel.identity;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.UUID;

/** A person known to the installation, keyed by the identity provider's issuer and subject. */
@MappedEntity("users")
public record UserRow(@Id UUID id, String issuer, String subject, @Nullable String email, @Nullable String name,
                      Instant createdAt) {
}
