package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.net.OutboundClients;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.kernel.web.ApiProblem;
import dev.stockade.api.kernel.web.ProblemCode;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * OAuth for connector credentials: the authorization code grant with PKCE (S256) against an operator-configured
 * application. {@link #start} returns the authorization URL (state and verifier kept, sealed, for ten minutes, single
 * use); the authorization server redirects the person to {@code /v1/oauth/connector-callback}, which exchanges the
 * code; access and refresh tokens are sealed at rest and never returned; an access token about to expire is refreshed
 * before a call. The token endpoint is the operator's configuration, so it is dialed without the connector guard.
 */
@Singleton
public class ConnectorOAuth {
    static final Duration STATE_LIFETIME = Duration.ofMinutes(10);
    static final String CALLBACK = "/v1/oauth/connector-callback";

    private final Map<String, OAuthApplication> applications = new LinkedHashMap<>();
    private final Sql jdbc;
    private final SecretBox box;
    private final PlatformConfig config;
    private final ObjectMapper json;
    private final SecureRandom random = new SecureRandom();
    private final HttpClient http = OutboundClients.trusted(Duration.ofSeconds(10));

    public ConnectorOAuth(List<OAuthApplication> configured, Sql jdbc, SecretBox box, PlatformConfig config, ObjectMapper json) {
        this.json = json;
        configured.forEach(a -> applications.put(a.name(), a));
        this.jdbc = jdbc;
        this.box = box;
        this.config = config;
    }

    public List<OAuthApplication> applications() {
        return List.copyOf(applications.values());
    }

    public OAuthApplication application(String name) {
        OAuthApplication app = applications.get(name);
        if (app == null) {
            throw ApiProblem.invalid("/application", "unknown", "no OAuth application named `" + name
                    + "` is configured (GET /v1/projects/{projectId}/oauth-applications lists them)");
        }
        return app;
    }

    String redirectUri() {
        return config.effectivePublicUrl() + CALLBACK;
    }

    /** Begins the authorization of an OAuth credential: the URL to open in a browser. */
    public String start(UUID credentialId, String applicationName) {
        OAuthApplication app = application(applicationName);
        String state = token();
        String verifier = token() + token();
        jdbc.prepare("INSERT INTO mcp_oauth_states (state, credential_id, sealed_verifier, expires_at)"
                + " VALUES (?, ?, ?, ?)", ps -> {
                    ps.setString(1, state);
                    ps.setObject(2, credentialId, Types.OTHER);
                    ps.setString(3, box.seal(verifier, "oauth-state:" + state));
                    ps.setTimestamp(4, Timestamp.from(Instant.now().plus(STATE_LIFETIME)));
                    return ps.executeUpdate();
                });
        Map<String, String> q = new LinkedHashMap<>();
        q.put("response_type", "code");
        q.put("client_id", app.clientId());
        q.put("redirect_uri", redirectUri());
        q.put("state", state);
        q.put("code_challenge", challenge(verifier));
        q.put("code_challenge_method", "S256");
        if (!app.scopes().isEmpty()) {
            q.put("scope", String.join(" ", app.scopes()));
        }
        return app.authorizationEndpoint() + (app.authorizationEndpoint().contains("?") ? "&" : "?") + form(q);
    }

    /** Completes an authorization: exchanges the code and stores the tokens; returns the credential's id. */
    public UUID complete(String state, String code) {
        record Pending(UUID credential, String verifier, String application) {
        }
        Pending p = jdbc.first("DELETE FROM mcp_oauth_states s USING mcp_server_credentials c WHERE s.state = ?"
                + " AND c.id = s.credential_id AND s.expires_at > now() RETURNING s.credential_id, s.sealed_verifier,"
                + " c.application", List.of(state),
                rs -> new Pending(rs.getObject(1, UUID.class), rs.getString(2), rs.getString(3)))
                .orElseThrow(() -> new ApiProblem(ProblemCode.INVALID_PARAMETER, "the authorization is unknown, already"
                        + " used or expired: start it again"));
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri());
        form.put("code_verifier", box.open(p.verifier(), "oauth-state:" + state));
        store(p.credential(), tokenRequest(application(p.application()), form), null);
        return p.credential();
    }

    /** A valid access token for the credential, refreshed first when it expires within a minute. */
    String accessToken(UUID credentialId, String applicationName, String sealedTokens, Instant expires)
            throws UpstreamClient.UpstreamException {
        JsonNode tokens = read(box.open(sealedTokens, ConnectorCredentials.context(credentialId)));
        if (expires == null || expires.isAfter(Instant.now().plusSeconds(60))) {
            return tokens.path("access_token").asText();
        }
        if (!tokens.hasNonNull("refresh_token")) {
            throw new UpstreamClient.UpstreamException("the OAuth credential's access token expired and there is no"
                    + " refresh token: authorize it again");
        }
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", tokens.path("refresh_token").asText());
        try {
            JsonNode fresh = tokenRequest(application(applicationName), form);
            store(credentialId, fresh, tokens.path("refresh_token").asText());
            return fresh.path("access_token").asText();
        } catch (ApiProblem e) {
            throw new UpstreamClient.UpstreamException("refreshing the OAuth credential failed: " + e.detail());
        }
    }

    private JsonNode tokenRequest(OAuthApplication app, Map<String, String> form) {
        form.put("client_id", app.clientId());
        if (app.clientSecret() != null) {
            form.put("client_secret", app.clientSecret());
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create(app.tokenEndpoint())).timeout(Duration.ofSeconds(20))
                .header("Content-Type", "application/x-www-form-urlencoded").header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(form(form))).build();
        try {
            HttpResponse<String> r = http.send(request, HttpResponse.BodyHandlers.ofString());
            JsonNode body = r.statusCode() == 200 ? read(r.body()) : null;
            if (body == null || !body.path("access_token").isTextual()) {
                throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, "the authorization server's token endpoint"
                        + " answered HTTP " + r.statusCode() + " without an access token");
            }
            return body;
        } catch (IOException e) {
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, "the authorization server's token endpoint could not"
                    + " be reached (" + e.getClass().getSimpleName() + ")");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ApiProblem(ProblemCode.UPSTREAM_FAILED, "the token request was interrupted");
        }
    }

    private void store(UUID credentialId, JsonNode answer, String previousRefresh) {
        Map<String, String> tokens = new LinkedHashMap<>();
        tokens.put("access_token", answer.path("access_token").asText());
        String refresh = answer.hasNonNull("refresh_token") ? answer.path("refresh_token").asText() : previousRefresh;
        if (refresh != null) {
            tokens.put("refresh_token", refresh);
        }
        Instant expires = answer.path("expires_in").canConvertToLong()
                ? Instant.now().plusSeconds(answer.path("expires_in").asLong()) : null;
        String sealed;
        try {
            sealed = box.seal(json.writeValueAsString(tokens), ConnectorCredentials.context(credentialId));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
        jdbc.prepare("UPDATE mcp_server_credentials SET sealed_tokens = ?, expires_at = ?,"
                + " connected_at = COALESCE(connected_at, now()) WHERE id = ?", ps -> {
                    ps.setString(1, sealed);
                    ps.setTimestamp(2, expires == null ? null : Timestamp.from(expires));
                    ps.setObject(3, credentialId, Types.OTHER);
                    return ps.executeUpdate();
                });
    }

    private JsonNode read(String text) {
        try {
            return json.readTree(text);
        } catch (IOException e) {
            return null;
        }
    }

    private String token() {
        byte[] b = new byte[24];
        random.nextBytes(b);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
    }

    static String challenge(String verifier) {
        try {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(MessageDigest.getInstance("SHA-256")
                    .digest(verifier.getBytes(StandardCharsets.US_ASCII)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String form(Map<String, String> values) {
        return values.entrySet().stream().map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "="
                + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    }
}
