package dev.stockade.api.enrollment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.kernel.net.OutboundClients;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;

/**
 * The enrollment hub's wire format (docs/hub-protocol.md): register a fleet, request enrollment, heartbeat, and the
 * setup-screen code exchange. Requests carry only what the spec lists: no data about agents, sandboxes, policies,
 * credentials or audit. The fleet access token goes in the Authorization header and nowhere else.
 */
public final class HubClient {
    /** A fleet the hub registered: its id and its access token (shown once). */
    public record Fleet(String fleetId, String accessToken) {
    }

    /** The hub's answer to an enrollment request, checked against the installation's own values. */
    public record Enrollment(String fleetId, String owner, String publicUrl, String authMode) {
    }

    /** A hub call that failed; the message names the call and the status or cause, never a token. */
    public static final class HubException extends Exception {
        private final int status;

        HubException(String message, int status) {
            super(message);
            this.status = status;
        }

        /** The hub's HTTP status, or 0 when the hub could not be reached. */
        public int status() {
            return status;
        }
    }

    private final URI hub;
    private final HttpClient http = OutboundClients.trusted(Duration.ofSeconds(5));
    private final ObjectMapper json;

    public HubClient(URI hub, ObjectMapper json) {
        this.hub = hub;
        this.json = json;
    }

    public URI url() {
        return hub;
    }

    public Fleet registerFleet(String operatorToken, String namespace, String name, String publicUrl) throws HubException {
        JsonNode n = call("POST", "/api/fleets", operatorToken,
                Map.of("namespace", namespace, "name", name, "kind", "platform", "publicUrl", publicUrl));
        return new Fleet(n.path("fleetId").asText(), n.path("accessToken").asText());
    }

    public Enrollment enroll(String fleetId, String accessToken, String authMode) throws HubException {
        JsonNode n = call("PUT", "/api/fleets/" + fleetId + "/enrollment", accessToken,
                Map.of("mode", "create", "authMode", authMode));
        return new Enrollment(n.path("fleetId").asText(), n.path("owner").asText(), n.path("publicUrl").asText(),
                n.path("authMode").asText());
    }

    public void heartbeat(String fleetId, String accessToken, String version) throws HubException {
        call("POST", "/api/fleets/" + fleetId + "/heartbeat", accessToken, Map.of("version", version));
    }

    public Fleet exchangeSetupCode(String code) throws HubException {
        JsonNode n = call("POST", "/api/setup/exchange", null, Map.of("code", code));
        return new Fleet(n.path("fleetId").asText(), n.path("accessToken").asText());
    }

    private JsonNode call(String method, String path, String bearer, Map<String, ?> body) throws HubException {
        String what = method + " " + path.replaceAll("/fleets/[^/]+", "/fleets/{id}");
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(hub.resolve(path)).timeout(Duration.ofSeconds(10))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofByteArray(json.writeValueAsBytes(body)));
            if (bearer != null) {
                b.header("Authorization", "Bearer " + bearer);
            }
            HttpResponse<byte[]> r = http.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
            if (r.statusCode() / 100 != 2) {
                throw new HubException("hub " + what + " answered " + r.statusCode(), r.statusCode());
            }
            return json.readTree(r.body());
        } catch (IOException e) {
            throw new HubException("hub " + what + " unreachable: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : " (" + e.getMessage() + ")"), 0);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new HubException("hub " + what + " interrupted", 0);
        }
    }
}
