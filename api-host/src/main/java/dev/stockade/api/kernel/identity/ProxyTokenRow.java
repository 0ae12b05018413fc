package dev.stockade.api.kernel.identity;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.data.annotation.Id;
import io.micronaut.data.annotation.MappedEntity;
import java.time.Instant;
import java.util.UUID;

/** A stored proxy token (a separate egress proxy replica's credential for the proxy feed): its hash, never the token. */
@MappedEntity("proxy_tokens")
public record ProxyTokenRow(@Id UUID id, String name, byte[] tokenHash, String prefix, String createdBy,
                            Instant createdAt, @Nullable Instant revokedAt) {
}
