package dev.stockade.api.kernel.access;

import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.ClusterTokens;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import dev.stockade.api.kernel.web.Text;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * Consults the table in {@link Action} for one request: resolves the organization and project the path names,
 * computes the caller's relations to them and allows or refuses. A caller with no relation at all to the
 * organization gets 404, exactly as for an id that does not exist, so tenants cannot probe each other's ids; a
 * caller of the same organization who lacks the role gets 403.
 */
@Singleton
public final class Authorizer {
    private final Sql jdbc;
    private final ClusterTokens projects;
    private final PlatformConfig config;
    private final MemberRoles roles;

    public Authorizer(Sql jdbc, ClusterTokens projects, PlatformConfig config, MemberRoles roles) {
        this.jdbc = jdbc;
        this.projects = projects;
        this.config = config;
        this.roles = roles;
    }

    /** Allows {@code action} or throws the refusal; returns what the path resolved to. */
    public Grant authorize(Identity caller, Action action, Map<String, Object> pathVariables) {
        Target target = resolve(action.scope(), pathVariables);
        Set<Relation> relations = relations(caller, target);
        if (relations.stream().anyMatch(action.allowed()::contains)) {
            return new Grant(target.orgId, target.projectId, relations);
        }
        boolean linked = relations.stream().anyMatch(r -> r != Relation.AUTHENTICATED && r != Relation.USER
                && r != Relation.SANDBOX_IDENTITY && r != Relation.ORG_CREATOR && r != Relation.EGRESS_PROXY);
        if (action.scope() != Scope.NONE && !linked) {
            throw ApiProblem.notFound(action.scope().name().toLowerCase().replace('_', ' ') + " `"
                    + pathVariables.get(action.scope().variable()) + "`");
        }
        throw new ApiProblem(ProblemCode.FORBIDDEN, "this identity may not perform `"
                + action.name().toLowerCase().replace('_', '-') + "`");
    }

    /**
     * As {@link #authorize}, for a call at a project's own endpoint ({@code endpointProject}; null: the
     * organization-wide one): a project-scoped action acts in that project, and an action whose target lies in
     * another project is refused.
     */
    public Grant authorizeAt(Identity caller, Action action, Map<String, Object> variables,
                             @Nullable UUID endpointProject) {
        Map<String, Object> vars = new HashMap<>(variables);
        if (endpointProject != null && action.scope() == Scope.PROJECT) {
            Object given = vars.put(Scope.PROJECT.variable(), endpointProject.toString());
            if (given != null && !given.toString().equals(endpointProject.toString())) {
                throw new ApiProblem(ProblemCode.FORBIDDEN, "this endpoint serves project `" + endpointProject
                        + "`; use its own endpoint or /mcp for another project");
            }
        }
        Grant grant = authorize(caller, action, vars);
        if (endpointProject != null && grant.projectId() != null && !endpointProject.equals(grant.projectId())) {
            throw new ApiProblem(ProblemCode.FORBIDDEN, "this endpoint serves project `" + endpointProject
                    + "`; the target belongs to another project");
        }
        return grant;
    }

    /**
     * The projects {@code caller} is a member of, at most {@code limit}: a sandbox token's own project, an API
     * token's or a person's project roles, and every project of an organization a person administers (the owner's
     * token: every project). For routes that act in "the caller's project" when it has exactly one.
     */
    public List<UUID> projectsOf(Identity caller, int limit) {
        if (caller instanceof Identity.SandboxToken s) {
            return List.of(s.projectId());
        }
        String sql;
        List<Object> args;
        if (caller instanceof Identity.Owner) {
            sql = "SELECT id FROM projects ORDER BY id LIMIT ?";
            args = List.of(limit);
        } else if (caller instanceof Identity.ApiToken a) {
            sql = "SELECT project_id FROM project_members WHERE principal_type = 'api-token' AND principal_id = ?"
                    + " ORDER BY project_id LIMIT ?";
            args = List.of(a.tokenId(), limit);
        } else if (caller instanceof Identity.User u) {
            sql = "SELECT project_id FROM project_members WHERE principal_type = 'user' AND principal_id = ?"
                    + " UNION SELECT p.id FROM projects p JOIN org_members m ON m.org_id = p.org_id"
                    + " WHERE m.user_id = ? AND m.role = 'ADMIN' ORDER BY 1 LIMIT ?";
            args = List.of(u.userId(), u.userId(), limit);
        } else {
            return List.of();
        }
        return jdbc.query(sql, args, rs -> rs.getObject(1, UUID.class));
    }

    /**
     * The organization of the target {@code id} names in {@code scope}, when it exists; empty for an installation-wide
     * scope, an id that is not a UUID or one that names nothing. Never refuses: it tells where a refused call is
     * recorded, not whether the caller may know the target.
     */
    public Optional<UUID> orgOfTarget(Scope scope, @Nullable Object id) {
        if (scope == Scope.NONE || id == null) {
            return Optional.empty();
        }
        try {
            return Optional.ofNullable(resolve(scope, Map.of(scope.variable(), id)).orgId());
        } catch (ApiProblem unknown) {
            return Optional.empty();
        }
    }

    /**
     * The platform tool families {@code caller} may list at an endpoint ({@code projectId} null: the
     * organization-wide one), by spec Authentication rule 2 (see {@link ToolFamily}). Listing is not running: every
     * call is still authorized against the action table.
     */
    public Set<ToolFamily> toolFamilies(Identity caller, @Nullable UUID projectId) {
        if (caller instanceof Identity.User || caller instanceof Identity.Owner) {
            return EnumSet.complementOf(EnumSet.of(ToolFamily.SELF));
        }
        if (caller instanceof Identity.ApiToken a) {
            return tokenIsProjectAdmin(a.tokenId(), projectId)
                    ? EnumSet.of(ToolFamily.DAY_TO_DAY, ToolFamily.SANDBOX_ADMIN) : EnumSet.of(ToolFamily.DAY_TO_DAY);
        }
        return caller instanceof Identity.SandboxToken ? EnumSet.of(ToolFamily.SELF) : EnumSet.noneOf(ToolFamily.class);
    }

    /** Whether the token is an admin of the project ({@code null}: of any project). */
    private boolean tokenIsProjectAdmin(UUID tokenId, @Nullable UUID projectId) {
        return jdbc.exists("SELECT 1 FROM project_members WHERE principal_type = 'api-token' AND principal_id = ?"
                + " AND role = 'ADMIN' AND (?::uuid IS NULL OR project_id = ?::uuid) LIMIT 1",
                Arrays.asList(tokenId, projectId, projectId));
    }

    /** What a path named: the organization and, for project-scoped routes, the project. */
    private record Target(UUID orgId, UUID projectId) {
    }

    private Target resolve(Scope scope, Map<String, Object> vars) {
        if (scope == Scope.NONE) {
            return new Target(null, null);
        }
        UUID id = uuid(scope.variable(), vars.get(scope.variable()));
        return switch (scope) {
            case ORG -> exists("SELECT id FROM organizations WHERE id = ?", id)
                    .map(org -> new Target(org, null)).orElseThrow(() -> ApiProblem.notFound("organization `" + id + "`"));
            case PROJECT -> projects.orgOf(id).map(org -> new Target(org, id))
                    .orElseThrow(() -> ApiProblem.notFound("project `" + id + "`"));
            case API_TOKEN -> exists("SELECT org_id FROM api_tokens WHERE id = ? AND org_id IS NOT NULL", id)
                    .map(org -> new Target(org, null)).orElseThrow(() -> ApiProblem.notFound("API token `" + id + "`"));
            case SANDBOX_TOKEN -> exists("SELECT project_id FROM sandbox_tokens WHERE id = ?", id)
                    .flatMap(p -> projects.orgOf(p).map(org -> new Target(org, p)))
                    .orElseThrow(() -> ApiProblem.notFound("sandbox token `" + id + "`"));
            case CLUSTER -> exists("SELECT project_id FROM clusters WHERE id = ?", id)
                    .flatMap(p -> projects.orgOf(p).map(org -> new Target(org, p)))
                    .orElseThrow(() -> ApiProblem.notFound("cluster `" + id + "`"));
            case AWS_CONNECTION -> exists("SELECT project_id FROM aws_connections WHERE id = ?", id)
                    .flatMap(p -> projects.orgOf(p).map(org -> new Target(org, p)))
                    .orElseThrow(() -> ApiProblem.notFound("AWS connection `" + id + "`"));
            case CONNECTOR -> exists("SELECT project_id FROM mcp_servers WHERE id = ?", id)
                    .flatMap(p -> projects.orgOf(p).map(org -> new Target(org, p)))
                    .orElseThrow(() -> ApiProblem.notFound("connector `" + id + "`"));
            case NONE -> throw new IllegalStateException("unreachable");
        };
    }

    private Set<Relation> relations(Identity caller, Target t) {
        EnumSet<Relation> out = EnumSet.noneOf(Relation.class);
        if (!(caller instanceof Identity.ClusterToken) && !(caller instanceof Identity.ProxyToken)) {
            out.add(Relation.AUTHENTICATED);
        }
        if (caller instanceof Identity.Owner) {
            out.addAll(EnumSet.of(Relation.INSTALLATION_OWNER, Relation.ORG_ADMIN, Relation.ORG_MEMBER));
            if (t.projectId != null) {
                out.addAll(EnumSet.of(Relation.PROJECT_ADMIN, Relation.PROJECT_MEMBER));
            }
        } else if (caller instanceof Identity.User u) {
            out.add(Relation.USER);
            if (u.emailVerified() && config.isOwnerEmail(u.email())) {
                out.add(Relation.ORG_CREATOR);
            }
            addRoles(out, t, "user", u.userId(), true);
        } else if (caller instanceof Identity.ApiToken a) {
            if (t.orgId == null || a.orgId().equals(t.orgId)) {
                out.add(Relation.ORG_API_TOKEN);
                addRoles(out, t, "api-token", a.tokenId(), false);
            }
        } else if (caller instanceof Identity.SandboxToken s) {
            out.add(Relation.SANDBOX_IDENTITY);
            if (s.orgId().equals(t.orgId)) {
                out.add(Relation.ORG_SANDBOX);
            }
            if (s.projectId().equals(t.projectId)) {
                out.add(Relation.PROJECT_SANDBOX);
            }
        } else if (caller instanceof Identity.ProxyToken) {
            out.add(Relation.EGRESS_PROXY);
        } else if (caller instanceof Identity.ClusterToken c && c.projectId().equals(t.projectId)) {
            out.add(Relation.PROJECT_CLUSTER);
        }
        return out;
    }

    private void addRoles(EnumSet<Relation> out, Target t, String principalType, UUID principal, boolean person) {
        if (t.orgId == null) {
            return;
        }
        MemberRoles.Held held = roles.of(new MemberRoles.Key(t.orgId, t.projectId, principalType, principal, person));
        if ("ADMIN".equals(held.orgRole())) {
            out.addAll(EnumSet.of(Relation.ORG_ADMIN, Relation.ORG_MEMBER));
            if (person) {
                out.add(Relation.SIGNED_IN_ORG_ADMIN);
            }
            if (t.projectId != null) {
                out.addAll(EnumSet.of(Relation.PROJECT_ADMIN, Relation.PROJECT_MEMBER));
            }
        } else if ("MEMBER".equals(held.orgRole())) {
            out.add(Relation.ORG_MEMBER);
        }
        if ("ADMIN".equals(held.projectRole())) {
            out.addAll(EnumSet.of(Relation.PROJECT_ADMIN, Relation.PROJECT_MEMBER));
        } else if ("MEMBER".equals(held.projectRole())) {
            out.add(Relation.PROJECT_MEMBER);
        }
    }

    private Optional<UUID> exists(String sql, UUID id) {
        return jdbc.first(sql, List.of(id), rs -> rs.getObject(1, UUID.class));
    }

    /** A path id that is not a UUID is a clear 400, before any query (this also refuses traversal like {@code ..}). */
    public static UUID uuid(String name, Object value) {
        String s = value == null ? "" : value.toString();
        if (s.length() == 36 && s.matches("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")) {
            return UUID.fromString(s);
        }
        throw new ApiProblem(ProblemCode.INVALID_PARAMETER, "`" + name + "` must be a UUID, not `" + Text.clip(s) + "`");
    }
}
