package dev.stockade.api.kernel.identity;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface SandboxTokenRepository extends CrudRepository<SandboxTokenRow, UUID> {
    Optional<SandboxTokenRow> findByTokenHash(byte[] tokenHash);

    List<SandboxTokenRow> findByProjectIdOrderByCreatedAt(UUID projectId);

    @Query("UPDATE sandbox_tokens SET revoked_at = :revokedAt WHERE id = :id AND revoked_at IS NULL")
    void revoke(UUID id, Instant revokedAt);
}
