package dev.stockade.api.clusters;

import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.identity.TokenFormat;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * Registered clusters of a project: create (with a tunnel token shown once), list, get, update, delete, and rotation
 * of the tunnel token (the old one stops working at once). Only the SHA-256 of a tunnel token is stored. Every write
 * is audited under kind {@code cluster}.
 */
@Singleton
public class ClusterService {
    private static final String COLUMNS = "id, org_id, project_id, name, description, api_server_url, ca_certificate,"
            + " tunnel_token_rotated_at, created_at, updated_at";

    private final Sql jdbc;
    private final AuditLog audit;
    private final ClusterTargets targets;
    private final RelayHub relays;

    public ClusterService(Sql jdbc, AuditLog audit, ClusterTargets targets, RelayHub relays) {
        this.jdbc = jdbc;
        this.audit = audit;
        this.targets = targets;
        this.relays = relays;
    }

    @Transactional
    public Cluster.WithTunnelToken create(Identity caller, Grant grant, ClusterRequests.CreateCluster body) {
        String name = body.name().strip();
        String url = targets.checkUrl(body.apiServerUrl());
        String ca = targets.checkCertificates(body.caCertificate());
        if (ca != null && url == null) {
            throw ApiProblem.invalid("/caCertificate", "ca-without-url",
                    "`caCertificate` is used only to trust `apiServerUrl`, which is not given");
        }
        requireFreeName(grant.projectId(), name, null);
        UUID id = UUID.randomUUID();
        String token = TokenFormat.TUNNEL.mint();
        // ON CONFLICT: two creates of one name at once end in one cluster and one 409, never a 500
        int made = jdbc.prepare("INSERT INTO clusters (id, org_id, project_id, name, description, api_server_url,"
                + " ca_certificate, tunnel_token_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT ON CONSTRAINT clusters_name_unique DO NOTHING", ps -> {
                    ps.setObject(1, id, Types.OTHER);
                    ps.setObject(2, grant.orgId(), Types.OTHER);
                    ps.setObject(3, grant.projectId(), Types.OTHER);
                    ps.setString(4, name);
                    ps.setString(5, body.description() == null ? "" : body.description());
                    ps.setString(6, url);
                    ps.setString(7, ca);
                    ps.setBytes(8, TokenFormat.hash(token));
                    return ps.executeUpdate();
                });
        if (made == 0) {
            throw new ApiProblem(ProblemCode.CONFLICT, "the project already has a cluster named `" + name + "`");
        }
        audit.record(AuditEvent.of(AuditKind.CLUSTER, "create").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(id.toString())
                .details(Map.of("name", name, "mode", url == null ? "relay" : "direct")).build());
        return Cluster.WithTunnelToken.of(get(id), token);
    }

    public List<Cluster> list(UUID projectId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM clusters WHERE project_id = ? ORDER BY created_at, id",
                List.of(projectId), this::row);
    }

    public Cluster get(UUID clusterId) {
        return find(clusterId).orElseThrow(() -> ApiProblem.notFound("cluster `" + clusterId + "`"));
    }

    public Optional<Cluster> find(UUID clusterId) {
        return jdbc.first("SELECT " + COLUMNS + " FROM clusters WHERE id = ?", List.of(clusterId), this::row);
    }

    @Transactional
    public Cluster update(Identity caller, UUID clusterId, ClusterRequests.UpdateCluster body) {
        Cluster c = get(clusterId);
        String name = body.name() == null ? c.name() : body.name().strip();
        String url = body.apiServerUrl() == null ? c.apiServerUrl()
                : body.apiServerUrl().isEmpty() ? null : targets.checkUrl(body.apiServerUrl());
        String ca = body.caCertificate() == null ? c.caCertificate()
                : body.caCertificate().isEmpty() ? null : targets.checkCertificates(body.caCertificate());
        if (ca != null && url == null) {
            throw ApiProblem.invalid("/caCertificate", "ca-without-url",
                    "`caCertificate` is used only to trust `apiServerUrl`, which the cluster would not have");
        }
        requireFreeName(c.projectId(), name, clusterId);
        String description = body.description() == null ? c.description() : body.description();
        jdbc.update("UPDATE clusters SET name = ?, description = ?, api_server_url = ?, ca_certificate = ?,"
                + " updated_at = now() WHERE id = ?", Arrays.asList(name, description, url, ca, clusterId));
        audit.record(event("update", caller, c).details(Map.of("name", name, "mode", url == null ? "relay" : "direct"))
                .build());
        return get(clusterId);
    }

    @Transactional
    public void delete(Identity caller, UUID clusterId) {
        Cluster c = get(clusterId);
        jdbc.update("DELETE FROM clusters WHERE id = ?", List.of(clusterId));
        audit.record(event("delete", caller, c).details(Map.of("name", c.name())).build());
    }

    /** A new tunnel token, returned once; the old one stops working with this commit. */
    @Transactional
    public Cluster.WithTunnelToken rotateTunnelToken(Identity caller, UUID clusterId) {
        Cluster c = get(clusterId);
        String token = TokenFormat.TUNNEL.mint();
        jdbc.update("UPDATE clusters SET tunnel_token_hash = ?, tunnel_token_rotated_at = now(), updated_at = now()"
                + " WHERE id = ?", List.of(TokenFormat.hash(token), clusterId));
        audit.record(event("rotate-tunnel-token", caller, c).build());
        return Cluster.WithTunnelToken.of(get(clusterId), token);
    }

    /** Whether {@code token} is the current tunnel token of {@code clusterId} (compared by hash, in the database). */
    public boolean tunnelTokenMatches(UUID clusterId, String token) {
        if (token == null || !TokenFormat.TUNNEL.matches(token)) {
            return false;
        }
        return jdbc.exists("SELECT 1 FROM clusters WHERE id = ? AND tunnel_token_hash = ?",
                List.of(clusterId, TokenFormat.hash(token)));
    }

    /** An audit entry about cluster {@code c}: recorded in its organization and project, under its id. */
    private static AuditEvent.Builder event(String action, Identity caller, Cluster c) {
        return AuditEvent.of(AuditKind.CLUSTER, action).by(caller).org(c.orgId()).project(c.projectId())
                .target(c.id().toString());
    }

    private void requireFreeName(UUID projectId, String name, UUID except) {
        if (jdbc.exists("SELECT 1 FROM clusters WHERE project_id = ? AND name = ? AND id IS DISTINCT FROM ?",
                Arrays.asList(projectId, name, except))) {
            throw new ApiProblem(ProblemCode.CONFLICT, "the project already has a cluster named `" + name + "`");
        }
    }

    private Cluster row(ResultSet rs) throws SQLException {
        String url = rs.getString(6);
        UUID id = rs.getObject(1, UUID.class);
        return new Cluster(id, rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getString(4), rs.getString(5), url, rs.getString(7), url == null ? "relay" : "direct",
                relays.connected(id), rs.getTimestamp(8).toInstant(), rs.getTimestamp(9).toInstant(),
                rs.getTimestamp(10).toInstant());
    }
}
