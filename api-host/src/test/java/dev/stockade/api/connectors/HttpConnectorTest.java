package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * An HTTP API described by an OpenAPI 3 document, served by the test (a small real server with a pets resource that
 * wants a bearer token), registered as a connector: its operations become tools whose calls are real HTTP requests
 * with the connector credential's header, and a changed document becomes a pending spec.
 */
@MicronautTest(transactional = false)
class HttpConnectorTest extends PlatformTest {
    private static final String DOCUMENT = """
            openapi: 3.0.3
            info: {title: Pets, version: "1"}
            servers: [{url: /api}]
            paths:
              /pets:
                get:
                  operationId: listPets
                  summary: List pets
                  parameters: [{name: limit, in: query, schema: {type: integer}}]
                post:
                  operationId: createPet
                  summary: Create a pet
                  requestBody:
                    required: true
                    content: {application/json: {schema: {$ref: '#/components/schemas/Pet'}}}
              /pets/{petId}:
                get:
                  operationId: getPet
                  parameters: [{name: petId, in: path, required: true, schema: {type: string}}]
            components:
              schemas:
                Pet: {type: object, required: [name], properties: {name: {type: string}}}
            """;

    private final Map<String, String> pets = new ConcurrentHashMap<>(Map.of("rex", "{\"name\":\"rex\"}"));
    private final List<String> seen = new CopyOnWriteArrayList<>();
    private volatile String document = DOCUMENT;
    private final HttpServer api = api();

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("connectors.allow-loopback-unsafe", "true");
    }

    @AfterAll
    void stop() {
        api.stop(0);
    }

    @Test
    void operationsBecomeToolsAndACallIsARealRequestWithTheCredential() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "http-" + System.nanoTime());
        String project = createProject(owner, org, "p");
        Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers/http", owner,
                Map.of("name", "pets", "documentUrl", base() + "/openapi.yaml"));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        assertThat(c.body().path("url").asText()).isEqualTo(base() + "/api");
        assertThat(c.body().path("documentUrl").asText()).isEqualTo(base() + "/openapi.yaml");
        assertThat(c.body().path("tools").findValuesAsText("name")).containsExactlyInAnyOrder("listPets", "createPet",
                "getPet");
        String connector = c.text("id");
        Http.Response cred = http.post("/v1/projects/" + project + "/mcp-servers/" + connector + "/credentials", owner,
                Map.of("name", "api-key", "secret", "static-secret"));
        assertThat(cred.status()).as(cred.raw()).isEqualTo(201);
        assertThat(cred.raw()).doesNotContain("static-secret");
        String token = grantedToken(owner, org, project, connector, cred.text("id"));

        JsonNode created = call(project, token, "pets__createPet", Map.of("body", Map.of("name", "tom")));
        assertThat(created.path("isError").asBoolean()).as(created.toString()).isFalse();
        assertThat(created.path("structuredContent").path("name").asText()).isEqualTo("tom");
        assertThat(seen).contains("POST /api/pets Bearer static-secret {\"name\":\"tom\"}");

        // through two proxies: the audit entry names the original caller
        java.net.http.HttpResponse<String> forwarded = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(server.getURI().resolve("/v1/projects/" + project
                        + "/mcp-servers/tools/call")).header("Authorization", "Bearer " + token)
                        .header("Content-Type", "application/json").header("X-Forwarded-For", "203.0.113.7, 10.0.0.2")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(
                                "{\"name\":\"pets__getPet\",\"arguments\":{\"petId\":\"rex\"}}")).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertThat(forwarded.statusCode()).as(forwarded.body()).isEqualTo(200);
        JsonNode audited = http.get("/v1/orgs/" + org + "/audit-trail?kind=tool-call", owner).body().path("items")
                .get(0);
        assertThat(audited.path("target").asText()).isEqualTo("pets__getPet");
        assertThat(audited.path("details").path("originalCaller").asText()).isEqualTo("203.0.113.7");
        assertThat(audited.path("details").path("via").asText()).isEqualTo("rest");

        JsonNode listed = call(project, token, "pets__listPets", Map.of("limit", 5));
        assertThat(listed.path("content").get(0).path("text").asText()).contains("rex", "tom");
        assertThat(seen).contains("GET /api/pets?limit=5 Bearer static-secret ");

        // a path argument is one encoded segment: it cannot walk to another path
        JsonNode escaped = call(project, token, "pets__getPet", Map.of("petId", "../admin"));
        assertThat(escaped.path("isError").asBoolean()).isTrue();
        assertThat(seen).contains("GET /api/pets/..%2Fadmin Bearer static-secret ");
        JsonNode unknown = call(project, token, "pets__getPet", Map.of("petId", "rex", "extra", 1));
        assertThat(unknown.path("structuredContent").path("code").asText()).isEqualTo("validation_failed");

        // the document changes: a pending spec, nothing new exposed until promoted
        document = DOCUMENT.replace("operationId: getPet", "operationId: getPet\n      summary: Read one pet");
        JsonNode sync = http.post("/v1/mcp-servers/" + connector + "/sync", owner, null).body();
        assertThat(sync.path("changed").asBoolean()).as(sync.toString()).isTrue();
        assertThat(sync.has("error")).isFalse();
        assertThat(sync.has("activeSpecId")).isFalse();
        JsonNode diff = http.get("/v1/mcp-servers/" + connector + "/specs/" + sync.path("pendingSpecId").asText()
                + "/diff", owner).body();
        assertThat(diff.path("changed").toString()).isEqualTo("[\"getPet\"]");
    }

    @Test
    void aCallWithoutTheCredentialIsRefusedByTheApiAndHiddenEntriesAreNotExposed() {
        String owner = ownerToken();
        String org = createOrg(owner, "http2-" + System.nanoTime());
        String project = createProject(owner, org, "p");
        Http.Response registered = http.post("/v1/projects/" + project + "/mcp-servers/http", owner,
                Map.of("name", "pets", "baseUrl", base() + "/api", "document", DOCUMENT));
        // a document given inline has no URL to re-read: the key is there, its value null
        assertThat(registered.body().has("documentUrl")).as(registered.raw()).isTrue();
        assertThat(registered.body().get("documentUrl").isNull()).isTrue();
        String connector = registered.text("id");
        String token = grantedToken(owner, org, project, connector, null);
        JsonNode refused = call(project, token, "pets__listPets", Map.of());
        assertThat(refused.path("isError").asBoolean()).isTrue();
        assertThat(refused.path("content").get(0).path("text").asText()).startsWith("HTTP 401");

        Http.Response hide = http.put("/v1/mcp-servers/" + connector + "/entries/listPets/visibility", owner,
                Map.of("visible", false));
        assertThat(hide.status()).as(hide.raw()).isEqualTo(200);
        JsonNode entries = http.get("/v1/mcp-servers/" + connector + "/entries", owner).body().path("items");
        for (JsonNode e : entries) {
            assertThat(e.path("visible").asBoolean()).as(e.toString()).isEqualTo(!e.path("name").asText()
                    .equals("listPets"));
        }
        Http.Response hidden = http.post("/v1/projects/" + project + "/mcp-servers/tools/call", token,
                Map.of("name", "pets__listPets", "arguments", Map.of()));
        assertThat(problem(hidden, 404)).isEqualTo("not_found");

        Http.Response external = http.post("/v1/projects/" + project + "/mcp-servers/http", owner,
                Map.of("name", "ext", "baseUrl", base(), "document", DOCUMENT.replace("'#/components/schemas/Pet'",
                        "'http://169.254.169.254/schema.json'")));
        assertThat(problem(external, 400)).isEqualTo("validation_failed");
        assertThat(external.body().path("detail").asText()).contains("refers outside itself");
        Http.Response notOpenApi = http.post("/v1/projects/" + project + "/mcp-servers/http", owner,
                Map.of("name", "junk", "baseUrl", base(), "document", "{\"hello\": 1}"));
        assertThat(problem(notOpenApi, 400)).isEqualTo("validation_failed");
    }

    private String grantedToken(String owner, String org, String project, String connector, String credentialId) {
        Map<String, Object> grant = new java.util.HashMap<>(Map.of("connectorId", connector, "allowedTools",
                List.of("listPets", "createPet", "getPet")));
        if (credentialId != null) {
            grant.put("credentialId", credentialId);
        }
        Http.Response p = http.post("/v1/projects/" + project + "/policies", owner,
                Map.of("name", "pets", "connectors", List.of(grant)));
        assertThat(p.status()).as(p.raw()).isEqualTo(201);
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner,
                Map.of("policyId", p.text("id"), "apiTokenId", t.text("id")));
        return t.text("token");
    }

    private JsonNode call(String project, String token, String tool, Map<String, Object> args) {
        Http.Response r = http.post("/v1/projects/" + project + "/mcp-servers/tools/call", token,
                Map.of("name", tool, "arguments", args));
        assertThat(r.status()).as(r.raw()).isEqualTo(200);
        return r.body();
    }

    private String base() {
        return "http://127.0.0.1:" + api.getAddress().getPort();
    }

    private HttpServer api() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            s.createContext("/openapi.yaml", ex -> send(ex, 200, "application/yaml", document));
            s.createContext("/api/", this::serve);
            s.start();
            return s;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private void serve(HttpExchange ex) throws IOException {
        String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        String auth = String.valueOf(ex.getRequestHeaders().getFirst("Authorization"));
        seen.add(ex.getRequestMethod() + " " + ex.getRequestURI().getRawPath()
                + (ex.getRequestURI().getRawQuery() == null ? "" : "?" + ex.getRequestURI().getRawQuery()) + " "
                + auth + " " + body);
        if (!auth.equals("Bearer static-secret")) {
            send(ex, 401, "application/json", "{\"error\":\"unauthorized\"}");
            return;
        }
        String path = ex.getRequestURI().getRawPath();
        if (path.equals("/api/pets") && ex.getRequestMethod().equals("POST")) {
            pets.put(body.replaceAll(".*\"name\":\"([^\"]*)\".*", "$1"), body);
            send(ex, 201, "application/json", body);
        } else if (path.equals("/api/pets")) {
            send(ex, 200, "application/json", "{\"items\":[" + String.join(",", pets.values()) + "]}");
        } else {
            String pet = pets.get(path.substring("/api/pets/".length()));
            send(ex, pet == null ? 404 : 200, "application/json", pet == null ? "{\"error\":\"no such pet\"}" : pet);
        }
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (ex) {
            ex.getResponseBody().write(bytes);
        }
    }
}
