package dev.stockade.api.connectors;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.connectors.UpstreamClient.UpstreamException;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds how a connector URL wants to be authorized (OAuth 2.0 Protected Resource Metadata, RFC 9728, as MCP's
 * authorization uses it): an unauthenticated {@code initialize} that is answered 401 names its metadata in
 * {@code WWW-Authenticate: Bearer resource_metadata="..."}, otherwise the well-known locations are tried; the
 * metadata's {@code authorization_servers} are matched against the operator's OAuth applications by issuer. Every
 * request passes the connector dial guard.
 */
@Singleton
record ResourceMetadata(GuardedHttp http, ObjectMapper json) {
    private static final Pattern RESOURCE_METADATA = Pattern.compile("resource_metadata=\"([^\"]+)\"");

    /** Where {@code url}'s authorization servers are, and which of {@code applications} serve it. */
    public ConnectorViews.AuthorizationDiscovery discover(URI url, List<OAuthApplication> applications) {
        Boolean requires = null;
        try {
            String challenge = probe(url);
            requires = challenge != null;
            for (URI candidate : candidates(url, challenge)) {
                JsonNode doc = metadata(candidate);
                if (doc != null) {
                    List<String> servers = new ArrayList<>();
                    doc.path("authorization_servers").forEach(s -> servers.add(s.asText()));
                    List<String> matching = applications.stream().filter(a -> servers.contains(a.issuer())
                            || servers.contains(a.issuer() + "/")).map(OAuthApplication::name).toList();
                    return new ConnectorViews.AuthorizationDiscovery(url.toString(), requires, candidate.toString(),
                            Optional.ofNullable(doc.path("resource").asText(null)), servers, matching, null);
                }
            }
            return new ConnectorViews.AuthorizationDiscovery(url.toString(), requires, null, null, List.of(),
                    List.of(), null);
        } catch (UpstreamException e) {
            return new ConnectorViews.AuthorizationDiscovery(url.toString(), requires, null, null, null, null,
                    e.getMessage());
        }
    }

    /** The challenge's metadata URL (when it names one), then the two well-known locations. */
    private static List<URI> candidates(URI url, String challenge) {
        List<URI> candidates = new ArrayList<>();
        Matcher m = challenge == null ? null : RESOURCE_METADATA.matcher(challenge);
        if (m != null && m.find()) {
            candidates.add(ConnectorService.url(url.resolve(m.group(1)).toString()));
        }
        String path = url.getRawPath() == null || url.getRawPath().equals("/") ? "" : url.getRawPath();
        candidates.add(url.resolve("/.well-known/oauth-protected-resource" + path));
        candidates.add(url.resolve("/.well-known/oauth-protected-resource"));
        return candidates;
    }

    /** The {@code WWW-Authenticate} challenge of an unauthenticated initialize, or null when none was asked. */
    private String probe(URI url) throws UpstreamException {
        HttpRequest post = HttpRequest.newBuilder(url).timeout(http.settings().callTimeout())
                .header("Content-Type", "application/json").header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                        + "\"params\":{\"protocolVersion\":\"" + UpstreamClient.PROTOCOL + "\",\"capabilities\":{},"
                        + "\"clientInfo\":{\"name\":\"stockade\",\"version\":\"discovery\"}}}")).build();
        try (GuardedHttp.Opened answer = http.open(post, Cancellation.none())) {
            return answer.status() == 401 ? String.valueOf(answer.header("www-authenticate")) : null;
        }
    }

    private JsonNode metadata(URI candidate) throws UpstreamException {
        HttpRequest get = HttpRequest.newBuilder(candidate).timeout(http.settings().callTimeout())
                .header("Accept", "application/json").GET().build();
        Cancellation none = Cancellation.none();
        try (GuardedHttp.Opened answer = http.open(get, none)) {
            if (answer.status() != 200) {
                return null;
            }
            JsonNode doc = json.readTree(answer.body().readAllBytes());
            return doc != null && doc.path("authorization_servers").isArray() ? doc : null;
        } catch (IOException e) {
            return null; // not metadata: try the next location
        }
    }
}
