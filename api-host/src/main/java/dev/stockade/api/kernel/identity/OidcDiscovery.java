package dev.stockade.api.kernel.identity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.config.OidcConfig;
import dev.stockade.api.kernel.net.OutboundClients;
import jakarta.inject.Singleton;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The identity provider's discovery document ({@code {issuer}/.well-known/openid-configuration}), fetched on first
 * use and kept; a failed fetch is retried on the next use, so a provider that is down at boot does not stop the host.
 */
@Singleton
public final class OidcDiscovery {
    /** The parts of the discovery document the platform uses. */
    public record Document(String issuer, URI jwksUri, URI tokenEndpoint, URI authorizationEndpoint,
                           URI deviceAuthorizationEndpoint) {
    }

    private final OidcConfig config;
    private final ObjectMapper json;
    private final HttpClient http = OutboundClients.trusted(Duration.ofSeconds(5));
    private final AtomicReference<Document> document = new AtomicReference<>();

    public OidcDiscovery(OidcConfig config, ObjectMapper json) {
        this.json = json;
        this.config = config;
    }

    public Optional<Document> document() {
        if (!config.enabled()) {
            return Optional.empty();
        }
        Document d = document.get();
        if (d == null) {
            d = fetch();
            document.compareAndSet(null, d);
        }
        return Optional.of(d);
    }

    private Document fetch() {
        String issuer = config.issuer().endsWith("/") ? config.issuer().substring(0, config.issuer().length() - 1)
                : config.issuer();
        try {
            HttpResponse<byte[]> r = http.send(HttpRequest.newBuilder(URI.create(issuer + "/.well-known/openid-configuration"))
                    .timeout(Duration.ofSeconds(10)).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() != 200) {
                throw new IllegalStateException("the identity provider's discovery document answered " + r.statusCode());
            }
            JsonNode n = json.readTree(r.body());
            if (!issuer.equals(n.path("issuer").asText().replaceAll("/$", ""))) {
                throw new IllegalStateException("the discovery document names another issuer");
            }
            return new Document(n.path("issuer").asText(), uri(n, "jwks_uri"), uri(n, "token_endpoint"),
                    uri(n, "authorization_endpoint"), uri(n, "device_authorization_endpoint"));
        } catch (IOException e) {
            throw new IllegalStateException("the identity provider's discovery document could not be read: "
                    + e.getClass().getSimpleName(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while reading the discovery document", e);
        }
    }

    private static URI uri(JsonNode n, String field) {
        String v = n.path(field).asText("");
        return v.isEmpty() ? null : URI.create(v);
    }
}
