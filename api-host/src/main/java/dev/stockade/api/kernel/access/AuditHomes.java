package dev.stockade.api.kernel.access;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.ClusterTokens;
import dev.stockade.api.kernel.identity.Identity;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The organizations a refused request's or tool call's audit entry goes to when authorization resolved none (a
 * refusal, an unknown tool, a tool that acts installation-wide), so that no entry lands where no one reads it. The
 * rule (docs/mcp.md, "Where refusals go"; the same for REST): an entry goes only to organizations the caller belongs
 * to, never into another tenant's trail.
 * <ul>
 *   <li>an API, sandbox or cluster token: its own organization;</li>
 *   <li>a person: the organization of the target (the endpoint's project, else the id the arguments name) when the
 *       person belongs to it, else every organization the person belongs to, else installation-wide;</li>
 *   <li>the installation owner (administrator of every organization): the target's organization, else
 *       installation-wide.</li>
 * </ul>
 * Installation-wide entries (no organization) are read by the owner at {@code GET /v1/audit-trail}.
 */
@Singleton
public record AuditHomes(Sql jdbc, ClusterTokens projects, Authorizer authorizer) {
    private static final String MEMBERSHIPS = "SELECT org_id FROM org_members WHERE user_id = ? UNION"
            + " SELECT p.org_id FROM projects p JOIN project_members m ON m.project_id = p.id"
            + " WHERE m.principal_type = 'user' AND m.principal_id = ? ORDER BY 1";

    /**
     * Where the entry of a call by {@code caller} at {@code endpointProject} (null: {@code /mcp}) goes; {@code action}
     * is the tool's (null for an unknown tool), {@code args} its arguments. Never empty; a null element is the
     * installation-wide trail.
     */
    public List<UUID> of(Identity caller, @Nullable UUID endpointProject, @Nullable Action action, JsonNode args) {
        return homes(caller, () -> target(endpointProject, action, args));
    }

    /** Where the entry of a REST request refused {@code action} on the target its path variables name goes. */
    public List<UUID> of(Identity caller, Action action, Map<String, Object> pathVariables) {
        return homes(caller, () -> action.scope() == Scope.NONE ? Optional.empty()
                : authorizer.orgOfTarget(action.scope(), pathVariables.get(action.scope().variable())));
    }

    private List<UUID> homes(Identity caller, java.util.function.Supplier<Optional<UUID>> targetOf) {
        UUID own = tokenOrg(caller);
        if (own != null) {
            return List.of(own);
        }
        Optional<UUID> target = targetOf.get();
        if (caller instanceof Identity.User u) {
            List<UUID> mine = memberships(u.userId());
            if (target.isPresent() && mine.contains(target.get())) {
                return List.of(target.get());
            }
            return mine.isEmpty() ? installationWide() : mine;
        }
        return caller instanceof Identity.Owner && target.isPresent() ? List.of(target.get()) : installationWide();
    }

    /**
     * The project a refused call's entry names: the endpoint's, else the project the arguments name when it lies in
     * one of {@code homes} (a project of another tenant stays out of the caller's trail).
     */
    @Nullable
    public UUID project(@Nullable UUID endpointProject, Action action, JsonNode args, List<UUID> homes) {
        if (endpointProject != null || action.scope() != Scope.PROJECT || !args.path("projectId").isTextual()) {
            return endpointProject;
        }
        String id = args.path("projectId").asText();
        Optional<UUID> org = authorizer.orgOfTarget(Scope.PROJECT, id);
        return org.isPresent() && homes.contains(org.get()) ? UUID.fromString(id) : null;
    }

    @Nullable
    private static UUID tokenOrg(Identity caller) {
        if (caller instanceof Identity.ApiToken a) {
            return a.orgId();
        }
        if (caller instanceof Identity.SandboxToken s) {
            return s.orgId();
        }
        return caller instanceof Identity.ClusterToken c ? c.orgId() : null;
    }

    private Optional<UUID> target(@Nullable UUID endpointProject, @Nullable Action action, JsonNode args) {
        if (endpointProject != null) {
            return projects.orgOf(endpointProject);
        }
        if (action == null || action.scope() == Scope.NONE || args == null || !args.isObject()) {
            return Optional.empty();
        }
        JsonNode id = args.get(action.scope().variable());
        return id != null && id.isTextual() ? authorizer.orgOfTarget(action.scope(), id.asText()) : Optional.empty();
    }

    private List<UUID> memberships(UUID userId) {
        return new ArrayList<>(jdbc.query(MEMBERSHIPS, List.of(userId, userId), rs -> rs.getObject(1, UUID.class)));
    }

    private static List<UUID> installationWide() {
        return Collections.singletonList(null);
    }
}
