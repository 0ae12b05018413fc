package dev.stockade.api.tenancy;

import io.micronaut.data.annotation.Query;
import io.micronaut.data.jdbc.annotation.JdbcRepository;
import io.micronaut.data.model.query.builder.sql.Dialect;
import io.micronaut.data.repository.CrudRepository;
import java.util.List;
import java.util.UUID;

@JdbcRepository(dialect = Dialect.POSTGRES)
public interface ProjectRepository extends CrudRepository<Project, UUID> {
    List<Project> findByOrgIdOrderByCreatedAt(UUID orgId);

    boolean existsByOrgIdAndName(UUID orgId, String name);

    @Query("SELECT p.* FROM projects p JOIN project_members m ON m.project_id = p.id"
            + " WHERE p.org_id = :orgId AND m.principal_type = :principalType AND m.principal_id = :principalId"
            + " ORDER BY p.created_at")
    List<Project> findForMember(UUID orgId, String principalType, UUID principalId);
}
