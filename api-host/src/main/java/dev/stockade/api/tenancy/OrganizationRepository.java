package dev.stockade.api.tenancy;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.util.List;
import java.util.UUID;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface OrganizationRepository extends CrudRepository<Organization, UUID> {
    List<Organization> findAllOrderByCreatedAt();

    @Query("SELECT o.* FROM organizations o JOIN org_members m ON m.org_id = o.id WHERE m.user_id = :userId"
            + " ORDER BY o.created_at")
    List<Organization> findForUser(UUID userId);

    @Query("UPDATE organizations SET name = :name WHERE id = :id")
    void rename(UUID id, String name);
}
