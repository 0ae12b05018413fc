package dev.stockade.api.aws;

import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import jakarta.transaction.Transactional;
import java.security.SecureRandom;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A project's AWS connections: create (generating the external ID when none is given), list, get, update, delete.
 * Every write is audited under kind {@code aws-connection}; the external ID never goes into the trail, since whoever
 * knows it with the role ARN can ask another deputy to assume the role.
 */
@Singleton
public class AwsConnectionService {
    /** An IAM role in any partition: the account is 12 digits, the path and name use IAM's characters. */
    static final Pattern ROLE_ARN = Pattern.compile(
            "arn:aws(-cn|-us-gov|-iso|-iso-b|-iso-e|-iso-f|-eusc)?:iam::\\d{12}:role/[\\w+=,.@/-]{1,512}");
    /** A region name (us-east-1, us-gov-west-1, cn-north-1, eu-isoe-west-1). */
    static final Pattern REGION = Pattern.compile("[a-z]{2}(-[a-z]+)+-\\d{1,2}");
    /** What STS accepts as an external ID. */
    static final Pattern EXTERNAL_ID = Pattern.compile("[\\w+=,.@:/-]{2,1224}");
    static final int DEFAULT_DURATION = 3600;

    private static final String COLUMNS = "id, org_id, project_id, name, role_arn, external_id, region,"
            + " session_duration_seconds, sts_endpoint, created_at, updated_at";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Sql jdbc;
    private final AuditLog audit;
    private final StsEndpoints endpoints;

    public AwsConnectionService(Sql jdbc, AuditLog audit, StsEndpoints endpoints) {
        this.jdbc = jdbc;
        this.audit = audit;
        this.endpoints = endpoints;
    }

    @Transactional
    public AwsConnection create(Identity caller, Grant grant, AwsConnectionRequests.CreateConnection body) {
        String name = body.name().strip();
        String roleArn = roleArn(body.roleArn());
        String externalId = body.externalId() == null ? "stockade-" + HexFormat.of().formatHex(bytes(16))
                : externalId(body.externalId());
        String region = region(body.region());
        int duration = duration(body.sessionDurationSeconds() == null ? DEFAULT_DURATION
                : body.sessionDurationSeconds());
        String endpoint = endpoints.check(body.stsEndpoint());
        UUID id = UUID.randomUUID();
        // ON CONFLICT: two creates of one name at once end in one connection and one 409, never a 500
        int made = jdbc.prepare("INSERT INTO aws_connections (id, org_id, project_id, name, role_arn, external_id,"
                + " region, session_duration_seconds, sts_endpoint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
                + " ON CONFLICT ON CONSTRAINT aws_connections_name_unique DO NOTHING", ps -> {
                    ps.setObject(1, id, Types.OTHER);
                    ps.setObject(2, grant.orgId(), Types.OTHER);
                    ps.setObject(3, grant.projectId(), Types.OTHER);
                    ps.setString(4, name);
                    ps.setString(5, roleArn);
                    ps.setString(6, externalId);
                    ps.setString(7, region);
                    ps.setInt(8, duration);
                    ps.setString(9, endpoint);
                    return ps.executeUpdate();
                });
        if (made == 0) {
            throw conflict(name);
        }
        AwsConnection c = get(id);
        audit.record(event("create", caller, c).details(facts(c)).build());
        return c;
    }

    public List<AwsConnection> list(UUID projectId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM aws_connections WHERE project_id = ? ORDER BY created_at, id",
                List.of(projectId), this::row);
    }

    public AwsConnection get(UUID connectionId) {
        return find(connectionId).orElseThrow(() -> ApiProblem.notFound("AWS connection `" + connectionId + "`"));
    }

    public Optional<AwsConnection> find(UUID connectionId) {
        return jdbc.first("SELECT " + COLUMNS + " FROM aws_connections WHERE id = ?", List.of(connectionId), this::row);
    }

    /** The connection of {@code projectId} named {@code name}, if any (what a policy's integration names). */
    public Optional<AwsConnection> byName(UUID projectId, String name) {
        return jdbc.first("SELECT " + COLUMNS + " FROM aws_connections WHERE project_id = ? AND name = ?",
                List.of(projectId, name), this::row);
    }

    @Transactional
    public AwsConnection update(Identity caller, UUID connectionId, AwsConnectionRequests.UpdateConnection body) {
        AwsConnection c = get(connectionId);
        String name = body.name() == null ? c.name() : body.name().strip();
        String roleArn = body.roleArn() == null ? c.roleArn() : roleArn(body.roleArn());
        String externalId = body.externalId() == null ? c.externalId() : externalId(body.externalId());
        String region = body.region() == null ? c.region() : region(body.region());
        int duration = body.sessionDurationSeconds() == null ? c.sessionDurationSeconds()
                : duration(body.sessionDurationSeconds());
        String endpoint = body.stsEndpoint() == null ? c.stsEndpoint()
                : body.stsEndpoint().isEmpty() ? null : endpoints.check(body.stsEndpoint());
        if (jdbc.exists("SELECT 1 FROM aws_connections WHERE project_id = ? AND name = ? AND id <> ?",
                List.of(c.projectId(), name, connectionId))) {
            throw conflict(name);
        }
        jdbc.update("UPDATE aws_connections SET name = ?, role_arn = ?, external_id = ?, region = ?,"
                + " session_duration_seconds = ?, sts_endpoint = ?, updated_at = now() WHERE id = ?",
                Arrays.asList(name, roleArn, externalId, region, duration, endpoint, connectionId));
        AwsConnection updated = get(connectionId);
        audit.record(event("update", caller, updated).details(facts(updated))
                .detail("externalIdChanged", !externalId.equals(c.externalId())).build());
        return updated;
    }

    @Transactional
    public void delete(Identity caller, UUID connectionId) {
        AwsConnection c = get(connectionId);
        jdbc.update("DELETE FROM aws_connections WHERE id = ?", List.of(connectionId));
        audit.record(event("delete", caller, c).details(Map.of("name", c.name())).build());
    }

    /** An audit entry about connection {@code c}: recorded in its organization and project, under its id. */
    static AuditEvent.Builder event(String action, dev.stockade.api.kernel.audit.Actor caller, AwsConnection c) {
        return AuditEvent.of(AuditKind.AWS_CONNECTION, action).by(caller).org(c.orgId()).project(c.projectId())
                .target(c.id().toString());
    }

    /** What the trail records of a connection: never its external ID. */
    private static Map<String, Object> facts(AwsConnection c) {
        return Map.of("name", c.name(), "roleArn", c.roleArn(), "region", c.region(),
                "sessionDurationSeconds", c.sessionDurationSeconds());
    }

    private static String roleArn(String raw) {
        String v = raw.strip();
        if (!ROLE_ARN.matcher(v).matches()) {
            throw ApiProblem.invalid("/roleArn", "invalid-role-arn", "`roleArn` must be the ARN of an IAM role,"
                    + " like `arn:aws:iam::123456789012:role/agents`");
        }
        return v;
    }

    private static String externalId(String raw) {
        if (!EXTERNAL_ID.matcher(raw).matches()) {
            throw ApiProblem.invalid("/externalId", "invalid-external-id",
                    "`externalId` must be 2 to 1224 of the characters STS accepts (letters, digits, +=,.@:/-_)");
        }
        return raw;
    }

    private static String region(String raw) {
        String v = raw.strip();
        if (!REGION.matcher(v).matches()) {
            throw ApiProblem.invalid("/region", "invalid-region", "`region` must be an AWS region like `us-east-1`");
        }
        return v;
    }

    private static int duration(int seconds) {
        if (seconds < 900 || seconds > 43200) {
            throw ApiProblem.invalid("/sessionDurationSeconds", "out-of-range",
                    "`sessionDurationSeconds` must be between 900 and 43200");
        }
        return seconds;
    }

    private static byte[] bytes(int n) {
        byte[] b = new byte[n];
        RANDOM.nextBytes(b);
        return b;
    }

    private static ApiProblem conflict(String name) {
        return new ApiProblem(ProblemCode.CONFLICT, "the project already has an AWS connection named `" + name + "`");
    }

    private AwsConnection row(ResultSet rs) throws SQLException {
        return new AwsConnection(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getObject(3, UUID.class),
                rs.getString(4), rs.getString(5), rs.getString(6), rs.getString(7), rs.getInt(8), rs.getString(9),
                rs.getTimestamp(10).toInstant(), rs.getTimestamp(11).toInstant());
    }
}
