package dev.stockade.api.enrollment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.kernel.identity.BearerToken;
import dev.stockade.api.kernel.identity.TokenFormat;
import dev.stockade.api.kernel.secrets.DataFiles;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A local enrollment hub on loopback for trying the platform on one machine ({@code --dev-hub}) and for tests. It
 * speaks exactly the hub wire format of docs/hub-protocol.md and keeps its fleets in a file, so an installation stays
 * enrolled across restarts. It is not the real hub: it approves every enrollment, with the owner {@code dev-owner}.
 */
public final class DevHub implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(DevHub.class);
    private static final int MAX_BODY = 64 * 1024;

    private final Path stateFile;
    // its own mapper: the dev hub stands in for the external hub (a separate service) and tests run it without an
    // application context; it reads and writes only JSON trees, where the platform mapper's settings play no part
    private final ObjectMapper json = new ObjectMapper();
    private final HttpServer server;
    private final List<Received> received = new ArrayList<>();
    private final Map<String, String> enrollmentAnswerOverrides = new HashMap<>();
    private ObjectNode state;

    /** A request the hub received: method, path, and the names of its JSON body's top-level fields and query. */
    public record Received(String method, String path, Set<String> keys) {
    }

    public DevHub(Path stateFile, int port) throws IOException {
        this.stateFile = stateFile;
        this.state = Files.exists(stateFile) ? (ObjectNode) json.readTree(stateFile.toFile()) : json.createObjectNode();
        if (!state.has("operatorToken")) {
            state.put("operatorToken", TokenFormat.API.mint().replace("stk_api_", "hub_op_"));
            state.putObject("fleets");
            state.putObject("setupCodes");
            save();
        }
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "dev-hub");
            t.setDaemon(true);
            return t;
        }));
        server.createContext("/", this::handle);
        server.start();
        LOG.warn("DEV HUB: a local enrollment hub for trying the platform runs at {} (not the real hub)", url());
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** The token that may register fleets (the operator's, in the real hub's terms). */
    public synchronized String operatorToken() {
        return state.path("operatorToken").asText();
    }

    /** Revokes a fleet, as an operator would at the hub (tests use this). */
    public synchronized void revoke(String fleetId) throws IOException {
        ((ObjectNode) state.path("fleets").path(fleetId)).put("revoked", true);
        save();
    }

    /** The requests received so far, oldest first (at most the last 1,000): what an installation sends the hub. */
    public synchronized List<Received> received() {
        return List.copyOf(received);
    }

    /**
     * Makes later enrollment answers say {@code value} for {@code field} ({@code fleetId}, {@code publicUrl},
     * {@code authMode}, {@code owner}), as a hub holding other values for the fleet would (tests of the checks).
     */
    public synchronized void answerEnrollmentWith(String field, String value) {
        enrollmentAnswerOverrides.put(field, value);
    }

    public synchronized String lastHeartbeatVersion(String fleetId) {
        return state.path("fleets").path(fleetId).path("version").asText(null);
    }

    @Override
    public void close() {
        server.stop(0);
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String[] seg = path.split("/");
            String method = ex.getRequestMethod();
            JsonNode body;
            try {
                body = body(ex);
            } catch (com.fasterxml.jackson.core.JacksonException e) {
                send(ex, 400, json.createObjectNode().put("error", "the body is not JSON"));
                return;
            }
            if ("POST".equals(method) && path.equals("/api/fleets")) {
                register(ex, body);
            } else if ("PUT".equals(method) && seg.length == 5 && "enrollment".equals(seg[4])) {
                enroll(ex, seg[3], body);
            } else if ("POST".equals(method) && seg.length == 5 && "heartbeat".equals(seg[4])) {
                heartbeat(ex, seg[3], body);
            } else if ("POST".equals(method) && path.equals("/api/setup/exchange")) {
                exchange(ex, body);
            } else if ("GET".equals(method) && path.equals("/enroll")) {
                approve(ex);
            } else {
                send(ex, 404, json.createObjectNode().put("error", "not found"));
            }
        } catch (RuntimeException e) {
            LOG.warn("dev hub failed a request: {}", e.getClass().getSimpleName());
        }
    }

    private synchronized void register(HttpExchange ex, JsonNode body) throws IOException {
        if (!operatorToken().equals(bearer(ex))) {
            send(ex, 401, json.createObjectNode().put("error", "operator token required"));
            return;
        }
        if (!"platform".equals(body.path("kind").asText()) || body.path("publicUrl").asText().isEmpty()) {
            send(ex, 400, json.createObjectNode().put("error", "kind must be platform and publicUrl is required"));
            return;
        }
        send(ex, 201, newFleet(body.path("namespace").asText(), body.path("name").asText(), body.path("publicUrl").asText()));
    }

    private ObjectNode newFleet(String namespace, String name, String publicUrl) throws IOException {
        String fleetId = "fleet-" + UUID.randomUUID();
        String token = TokenFormat.API.mint().replace("stk_api_", "hub_fat_");
        ObjectNode fleet = ((ObjectNode) state.path("fleets")).putObject(fleetId);
        fleet.put("namespace", namespace).put("name", name).put("publicUrl", publicUrl).put("tokenHash", hash(token))
                .put("revoked", false);
        save();
        return json.createObjectNode().put("fleetId", fleetId).put("accessToken", token);
    }

    private synchronized void enroll(HttpExchange ex, String fleetId, JsonNode body) throws IOException {
        JsonNode fleet = authorizedFleet(ex, fleetId);
        if (fleet == null) {
            return;
        }
        if (!"create".equals(body.path("mode").asText())) {
            send(ex, 400, json.createObjectNode().put("error", "mode must be create"));
            return;
        }
        ((ObjectNode) fleet).put("authMode", body.path("authMode").asText()).put("enrolled", true);
        save();
        ObjectNode answer = json.createObjectNode().put("fleetId", fleetId).put("owner", "dev-owner")
                .put("publicUrl", fleet.path("publicUrl").asText()).put("authMode", body.path("authMode").asText());
        enrollmentAnswerOverrides.forEach(answer::put);
        send(ex, 200, answer);
    }

    private synchronized void heartbeat(HttpExchange ex, String fleetId, JsonNode body) throws IOException {
        JsonNode fleet = authorizedFleet(ex, fleetId);
        if (fleet != null) {
            ((ObjectNode) fleet).put("version", body.path("version").asText());
            save();
            send(ex, 200, json.createObjectNode().put("status", "active"));
        }
    }

    /** The browser leg of the setup screen: the dev hub approves at once and sends the browser back with a code. */
    private synchronized void approve(HttpExchange ex) throws IOException {
        String query = ex.getRequestURI().getRawQuery() == null ? "" : ex.getRequestURI().getRawQuery();
        String back = param(query, "return");
        String publicUrl = param(query, "publicUrl");
        if (back == null || publicUrl == null || !back.startsWith(publicUrl)) {
            send(ex, 400, json.createObjectNode().put("error", "return must be under publicUrl"));
            return;
        }
        ObjectNode fleet = newFleet("setup", "stockade", publicUrl);
        String code = UUID.randomUUID().toString();
        ((ObjectNode) state.path("setupCodes")).set(code, fleet);
        save();
        String state = param(query, "state");
        ex.getResponseHeaders().add("Location", back + (back.contains("?") ? "&" : "?") + "code=" + code
                + (state == null ? "" : "&state=" + URLEncoder.encode(state, StandardCharsets.UTF_8)));
        ex.sendResponseHeaders(302, -1);
    }

    private synchronized void exchange(HttpExchange ex, JsonNode body) throws IOException {
        String code = body.path("code").asText();
        JsonNode fleet = state.path("setupCodes").path(code);
        if (fleet.isMissingNode()) {
            send(ex, 400, json.createObjectNode().put("error", "unknown or used code"));
            return;
        }
        ((ObjectNode) state.path("setupCodes")).remove(code);
        save();
        send(ex, 200, fleet);
    }

    private JsonNode authorizedFleet(HttpExchange ex, String fleetId) throws IOException {
        JsonNode fleet = state.path("fleets").path(fleetId);
        String token = bearer(ex);
        if (fleet.isMissingNode() || token == null || !hash(token).equals(fleet.path("tokenHash").asText())) {
            send(ex, 401, json.createObjectNode().put("error", "fleet access token required"));
            return null;
        }
        if (fleet.path("revoked").asBoolean()) {
            send(ex, 403, json.createObjectNode().put("status", "revoked"));
            return null;
        }
        return fleet;
    }

    private JsonNode body(HttpExchange ex) throws IOException {
        try (InputStream in = ex.getRequestBody()) {
            byte[] b = in.readNBytes(MAX_BODY);
            JsonNode node = b.length == 0 ? json.createObjectNode() : json.readTree(b);
            Set<String> keys = new TreeSet<>();
            node.fieldNames().forEachRemaining(keys::add);
            String query = ex.getRequestURI().getRawQuery();
            for (String kv : query == null ? new String[0] : query.split("&")) {
                keys.add(kv.split("=", 2)[0]); // the browser leg carries its values in the query
            }
            synchronized (this) {
                if (received.size() == 1000) {
                    received.remove(0);
                }
                received.add(new Received(ex.getRequestMethod(), ex.getRequestURI().getPath(), Set.copyOf(keys)));
            }
            return node;
        }
    }

    private void send(HttpExchange ex, int status, JsonNode body) throws IOException {
        byte[] b = json.writeValueAsBytes(body);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        ex.getResponseBody().write(b);
    }

    private static String bearer(HttpExchange ex) {
        return BearerToken.of(ex.getRequestHeaders().getFirst("Authorization")).orElse(null);
    }

    private static String param(String query, String name) {
        for (String kv : query.split("&")) {
            int eq = kv.indexOf('=');
            if (eq > 0 && kv.substring(0, eq).equals(name)) {
                return java.net.URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8);
            }
        }
        return null;
    }

    private void save() throws IOException {
        DataFiles.writePrivate(stateFile, json.writerWithDefaultPrettyPrinter().writeValueAsString(state));
    }

    private static String hash(String token) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
