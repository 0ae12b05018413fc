package dev.stockade.api.kernel.identity;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.UUID;

/** A stored sandbox token, pinned to its project. */
@MappedEntity("sandbox_tokens")
public record SandboxTokenRow(@Id UUID id, UUID projectId, String name, byte[] tokenHash, String prefix,
                              String createdBy, Instant createdAt, @Nullable Instant expiresAt,
                              @Nullable Instant revokedAt) {

    public boolean usableAt(Instant now) {
        return revokedAt == null && (expiresAt == null || expiresAt.isAfter(now));
    }
}
