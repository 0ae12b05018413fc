package dev.stockade.api.connectors;

import dev.stockade.api.credentials.CredentialInput;
import dev.stockade.api.kernel.access.Grant;
import dev.stockade.api.kernel.audit.AuditEvent;
import dev.stockade.api.kernel.audit.AuditKind;
import dev.stockade.api.kernel.audit.AuditLog;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.identity.Identity;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Credentials of a connector, sealed at rest and never returned: a static secret sent in the header its format
 * names, or OAuth tokens obtained through an operator-configured application ({@link ConnectorOAuth}). A policy's
 * connector grant names the credential its calls use ({@code credentialId}); a grant that names none calls without.
 */
@Singleton
record ConnectorCredentials(Sql jdbc, SecretBox box, AuditLog audit, ConnectorOAuth oauth) {
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");
    private static final String COLUMNS = "id, server_id, name, kind, header_format, application, connected_at,"
            + " expires_at, created_by, created_at";

    /** A connector credential as the API shows it (no secret, no token). */
    public record View(UUID id, UUID serverId, String name, String kind, @Nullable String headerName,
                       @Nullable String application, @Nullable Instant connectedAt, @Nullable Instant expiresAt,
                       String createdBy, Instant createdAt) {
    }

    static String context(UUID credentialId) {
        return "connector-credential:" + credentialId;
    }

    /** Creates a static ({@code secret}, {@code headerFormat}) or OAuth ({@code application}) credential. */
    public View create(Identity caller, Grant grant, Connector connector, String name, @Nullable String secret,
                       @Nullable String headerFormat, @Nullable String application) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw ApiProblem.invalid("/name", "pattern", "`name` must be 1 to 100 letters, digits, `.`, `_` or `-`");
        }
        boolean isOauth = application != null;
        if (isOauth == (secret != null)) {
            throw ApiProblem.invalid("/secret", "required", "give `secret` (a static credential) or `application`"
                    + " (an OAuth credential), not both");
        }
        String format = headerFormat == null ? "Authorization: Bearer {secret}" : headerFormat;
        if (!isOauth && (!CredentialInput.headerFormatValid(format) || secret.isEmpty() || secret.length() > 8192
                || secret.chars().anyMatch(Character::isISOControl))) {
            throw ApiProblem.invalid(secret.isEmpty() || secret.length() > 8192 ? "/secret" : "/headerFormat",
                    "invalid", secret.isEmpty() || secret.length() > 8192
                            ? "`secret` must be 1 to 8192 characters without control characters"
                            : CredentialInput.HEADER_FORMAT_RULE);
        }
        if (isOauth) {
            oauth.application(application); // refuses an unknown application
        }
        UUID id = UUID.randomUUID();
        try {
            jdbc.prepare("INSERT INTO mcp_server_credentials (id, server_id, name, kind, header_format, sealed_secret,"
                    + " application, created_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", ps -> {
                        ps.setObject(1, id, Types.OTHER);
                        ps.setObject(2, connector.id(), Types.OTHER);
                        ps.setString(3, name);
                        ps.setString(4, isOauth ? "oauth" : "static");
                        ps.setString(5, isOauth ? null : format);
                        ps.setString(6, isOauth ? null : box.seal(secret, context(id)));
                        ps.setString(7, application);
                        ps.setString(8, caller.type() + ":" + caller.actorId());
                        return ps.executeUpdate();
                    });
        } catch (RuntimeException e) {
            if (String.valueOf(e.getMessage()).contains("mcp_server_credentials_server_id_name_key")) {
                throw new ApiProblem(ProblemCode.CONFLICT, "the connector already has a credential named `" + name
                        + "`");
            }
            throw e;
        }
        audit.record(AuditEvent.of(AuditKind.CONNECTOR_CREDENTIAL, "create").by(caller).org(grant.orgId())
                .project(connector.projectId()).target(id.toString())
                .details(Map.of("name", name, "kind", isOauth ? "oauth" : "static", "serverId", connector.id().toString()))
                .build());
        return get(connector.id(), id);
    }

    public List<View> list(UUID serverId) {
        return jdbc.query("SELECT " + COLUMNS + " FROM mcp_server_credentials WHERE server_id = ? ORDER BY name",
                List.of(serverId), ConnectorCredentials::view);
    }

    public View get(UUID serverId, UUID id) {
        return jdbc.first("SELECT " + COLUMNS + " FROM mcp_server_credentials WHERE server_id = ? AND id = ?",
                List.of(serverId, id), ConnectorCredentials::view)
                .orElseThrow(() -> ApiProblem.notFound("credential `" + id + "` (of this connector)"));
    }

    public void delete(Identity caller, Grant grant, UUID serverId, UUID id) {
        View v = get(serverId, id);
        jdbc.update("DELETE FROM mcp_server_credentials WHERE id = ?", List.of(id));
        audit.record(AuditEvent.of(AuditKind.CONNECTOR_CREDENTIAL, "delete").by(caller).org(grant.orgId())
                .project(grant.projectId()).target(id.toString()).details(Map.of("name", v.name())).build());
    }

    /** The headers a call through {@code connector} carries: none without a credential. */
    public Map<String, String> headers(Connector connector, @Nullable UUID credentialId)
            throws UpstreamClient.UpstreamException {
        if (credentialId == null) {
            return Map.of();
        }
        record Row(String kind, String format, String sealed, String application, String tokens, Instant expires) {
        }
        Row row = jdbc.first("SELECT kind, header_format, sealed_secret, application, sealed_tokens, expires_at"
                + " FROM mcp_server_credentials WHERE id = ? AND server_id = ?", List.of(credentialId, connector.id()),
                rs -> new Row(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5),
                        instant(rs.getTimestamp(6))))
                .orElseThrow(() -> new UpstreamClient.UpstreamException("the policy names credential `" + credentialId
                        + "`, which this connector does not have"));
        Map<String, String> out = new LinkedHashMap<>();
        if (row.kind().equals("static")) {
            int colon = row.format().indexOf(':');
            out.put(row.format().substring(0, colon).strip(), row.format().substring(colon + 1).strip()
                    .replace("{secret}", box.open(row.sealed(), context(credentialId))));
            return out;
        }
        if (row.tokens() == null) {
            throw new UpstreamClient.UpstreamException("OAuth credential `" + credentialId + "` is not connected yet:"
                    + " a project admin starts the authorization at .../oauth/start");
        }
        out.put("Authorization", "Bearer " + oauth.accessToken(credentialId, row.application(), row.tokens(),
                row.expires()));
        return out;
    }

    private static View view(ResultSet rs) throws SQLException {
        String format = rs.getString(5);
        return new View(rs.getObject(1, UUID.class), rs.getObject(2, UUID.class), rs.getString(3), rs.getString(4),
                format == null ? null : format.substring(0, format.indexOf(':')).strip(), rs.getString(6),
                instant(rs.getTimestamp(7)), instant(rs.getTimestamp(8)), rs.getString(9),
                rs.getTimestamp(10).toInstant());
    }

    private static Instant instant(Timestamp t) {
        return t == null ? null : t.toInstant();
    }
}
