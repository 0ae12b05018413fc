package dev.stockade.api.kernel.identity;

import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.util.Optional;
import java.util.UUID;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface UserRepository extends CrudRepository<UserRow, UUID> {
    Optional<UserRow> findByIssuerAndSubject(String issuer, String subject);
}
