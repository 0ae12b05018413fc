package dev.stockade.api.kernel.identity;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.UUID;

/** A stored API token: its hash, never the token. {@code orgId} is null only for the installation owner's token. */
@MappedEntity("api_tokens")
public record ApiTokenRow(@Id UUID id, @Nullable UUID orgId, boolean owner, String name, byte[] tokenHash,
                          String prefix, String createdBy, Instant createdAt, @Nullable Instant expiresAt,
                          @Nullable Instant revokedAt) {

    public boolean usableAt(Instant now) {
        return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
    }
}
