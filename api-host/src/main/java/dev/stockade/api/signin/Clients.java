package dev.stockade.api.signin;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.db.Sql;
import io.micronaut.core.annotation.Introspected;
import io.micronaut.core.annotation.Nullable;
import jakarta.inject.Singleton;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Dynamic client registration (RFC 7591), the way the MCP TypeScript SDK registers when a server does not offer
 * client ID metadata documents. Every client is public (PKCE, no secret); redirect URIs are https, or http on a
 * loopback address (RFC 8252), and are matched exactly except for a loopback URI's port.
 */
@Singleton
final class Clients {
    static final int MAX_REDIRECT_URIS = 10;

    /** What a client asks to register; fields the platform does not use are ignored, as RFC 7591 allows. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    record Request(@JsonProperty("redirect_uris") @Nullable List<String> redirectUris,
                   @JsonProperty("client_name") @Nullable String clientName) {
    }

    /** A registered client, as the registration answer shows it. */
    @Introspected
    record Client(@JsonProperty("client_id") String clientId,
                  @JsonProperty("client_name") @Nullable String clientName,
                  @JsonProperty("redirect_uris") List<String> redirectUris,
                  @JsonProperty("client_id_issued_at") long issuedAt,
                  @JsonProperty("grant_types") List<String> grantTypes,
                  @JsonProperty("response_types") List<String> responseTypes,
                  @JsonProperty("token_endpoint_auth_method") String tokenEndpointAuthMethod) {
        Client(String clientId, @Nullable String clientName, List<String> redirectUris, Instant issuedAt) {
            this(clientId, clientName, redirectUris, issuedAt.getEpochSecond(),
                    List.of("authorization_code", "refresh_token"), List.of("code"), "none");
        }

        /** Whether {@code uri} is one of its redirect URIs: exact, or a loopback one on any port. */
        boolean redirectsTo(String uri) {
            return redirectUris.contains(uri) || redirectUris.stream().anyMatch(r -> sameLoopback(r, uri));
        }
    }

    private final Sql sql;
    private final ObjectMapper json;

    Clients(Sql sql, ObjectMapper json) {
        this.sql = sql;
        this.json = json;
    }

    Client register(String body) {
        Request request;
        try {
            request = json.readValue(body == null ? "" : body, Request.class);
        } catch (JsonProcessingException e) {
            throw new OAuthFailure(400, "invalid_client_metadata", "the body must be a JSON object of client metadata");
        }
        List<String> uris = request.redirectUris() == null ? List.of() : request.redirectUris();
        if (uris.isEmpty() || uris.size() > MAX_REDIRECT_URIS) {
            throw new OAuthFailure(400, "invalid_redirect_uri", "give 1 to " + MAX_REDIRECT_URIS + " redirect_uris");
        }
        for (String u : uris) {
            if (!acceptable(u)) {
                throw new OAuthFailure(400, "invalid_redirect_uri", "`" + shown(u) + "` must be an absolute https URL,"
                        + " or http on a loopback address, without a fragment");
            }
        }
        String name = request.clientName() == null ? null : request.clientName().strip();
        if (name != null && (name.length() > 200 || name.chars().anyMatch(Character::isISOControl))) {
            throw new OAuthFailure(400, "invalid_client_metadata", "client_name must have at most 200 printable"
                    + " characters");
        }
        Client client = new Client(UUID.randomUUID().toString(), name, List.copyOf(uris), Instant.now());
        sql.update("INSERT INTO signin_clients (client_id, client_name, redirect_uris) VALUES (?, ?, ?)",
                Arrays.asList(client.clientId(), name, String.join("\n", uris)));
        return client;
    }

    Optional<Client> find(String clientId) {
        if (clientId == null || clientId.length() > 64) {
            return Optional.empty();
        }
        return sql.first("SELECT client_id, client_name, redirect_uris, created_at FROM signin_clients"
                + " WHERE client_id = ?", List.of(clientId), rs -> new Client(rs.getString(1), rs.getString(2),
                List.of(rs.getString(3).split("\n")), rs.getTimestamp(4).toInstant()));
    }

    static boolean acceptable(String uri) {
        if (uri == null || uri.length() > 2000 || uri.chars().anyMatch(c -> c <= ' ' || c >= 0x7f)) {
            return false;
        }
        try {
            URI u = new URI(uri);
            if (u.getFragment() != null || u.getHost() == null || u.getRawUserInfo() != null) {
                return false;
            }
            return "https".equals(u.getScheme()) || ("http".equals(u.getScheme()) && loopback(u.getHost()));
        } catch (Exception e) {
            return false;
        }
    }

    /** RFC 8252 section 7.3: a loopback redirect URI matches whatever port the native app listens on. */
    static boolean sameLoopback(String registered, String given) {
        try {
            URI r = new URI(registered);
            URI g = new URI(given);
            return "http".equals(r.getScheme()) && "http".equals(g.getScheme()) && loopback(r.getHost())
                    && Objects.equals(r.getHost(), g.getHost()) && Objects.equals(r.getRawPath(), g.getRawPath())
                    && Objects.equals(r.getRawQuery(), g.getRawQuery()) && g.getFragment() == null
                    && g.getRawUserInfo() == null;
        } catch (Exception e) {
            return false;
        }
    }

    private static boolean loopback(String host) {
        if (host.equals("localhost")) {
            return true;
        }
        String literal = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        if (!literal.matches("[0-9.]+|[0-9a-fA-F:]+")) {
            return false; // a name other than localhost is never resolved here
        }
        try {
            return InetAddress.getByName(literal).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static String shown(String s) {
        return s == null ? "" : s.length() > 80 ? s.substring(0, 80) + "…" : s;
    }
}
