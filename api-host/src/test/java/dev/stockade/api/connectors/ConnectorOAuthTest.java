package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jose.jwk.JWKSet;
import com.nimbusds.jose.jwk.RSAKey;
import com.nimbusds.jwt.SignedJWT;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/**
 * A real OAuth flow for a connector credential against the in-process OAuth provider (mock-oauth2-server):
 * authorization code with PKCE through the browser redirect, the code exchanged at the token endpoint, and the access
 * token sent to an API that verifies its signature with the provider's keys. The API also publishes its protected
 * resource metadata, which discovery matches to the operator's application.
 */
@MicronautTest(transactional = false)
class ConnectorOAuthTest extends OidcPlatformTest {
    private final HttpServer api = api();

    @Override
    protected Map<String, String> oidcTestProperties() {
        String p = "connectors.oauth-applications.corp.";
        return Map.of("connectors.allow-loopback-unsafe", "true",
                p + "issuer", idp.issuerUrl("default").toString(),
                p + "authorization-endpoint", idp.authorizationEndpointUrl("default").toString(),
                p + "token-endpoint", idp.tokenEndpointUrl("default").toString(),
                p + "client-id", "stockade-connectors",
                p + "client-secret", "not-shown-anywhere",
                p + "scopes", "openid,api");
    }

    @AfterAll
    void stop() {
        api.stop(0);
    }

    @Test
    void anAuthorizationCodeWithPkceConnectsTheCredentialAndCallsCarryItsToken() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "oauth-" + System.nanoTime());
        String project = createProject(owner, org, "p");
        JsonNode apps = http.get("/v1/projects/" + project + "/oauth-applications", owner).body();
        assertThat(apps.path("items").get(0).path("name").asText()).isEqualTo("corp");
        assertThat(apps.toString()).doesNotContain("not-shown-anywhere");

        String connector = http.post("/v1/projects/" + project + "/mcp-servers/http", owner, Map.of("name", "corp",
                "baseUrl", base() + "/api", "document", """
                        {"openapi": "3.0.3", "info": {"title": "Corp", "version": "1"},
                         "paths": {"/me": {"get": {"operationId": "whoami"}}}}""")).text("id");
        JsonNode found = http.post("/v1/mcp-servers/" + connector + "/discover/url", owner, null).body();
        assertThat(found.path("requiresAuthorization").asBoolean()).as(found.toString()).isTrue();
        assertThat(found.path("authorizationServers").get(0).asText()).isEqualTo(idp.issuerUrl("default").toString());
        assertThat(found.path("applications").toString()).isEqualTo("[\"corp\"]");

        Http.Response cred = http.post("/v1/projects/" + project + "/mcp-servers/" + connector + "/credentials", owner,
                Map.of("name", "corp-oauth", "application", "corp"));
        assertThat(cred.status()).as(cred.raw()).isEqualTo(201);
        String credential = cred.text("id");
        String start = http.post("/v1/projects/" + project + "/mcp-servers/" + connector + "/credentials/"
                + credential + "/oauth/start", owner, null).text("authorizationUrl");
        assertThat(start).contains("code_challenge_method=S256", "code_challenge=", "state=");

        // the browser: the provider signs the person in and redirects back to the platform's callback
        HttpClient browser = HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NEVER).build();
        HttpResponse<String> authorize = browser.send(HttpRequest.newBuilder(URI.create(start)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(authorize.statusCode()).as(authorize.body()).isEqualTo(302);
        URI back = URI.create(authorize.headers().firstValue("Location").orElseThrow());
        assertThat(back.getPath()).isEqualTo("/v1/oauth/connector-callback");
        Http.Response callback = http.get(back.getRawPath() + "?" + back.getRawQuery(), null);
        assertThat(callback.status()).as(callback.raw()).isEqualTo(200);
        Http.Response replay = http.get(back.getRawPath() + "?" + back.getRawQuery(), null);
        assertThat(problem(replay, 400)).isEqualTo("invalid_parameter"); // single use

        JsonNode listed = http.get("/v1/projects/" + project + "/mcp-servers/" + connector + "/credentials", owner)
                .body();
        assertThat(listed.path("items").get(0).path("connectedAt").isTextual()).isTrue();
        assertThat(listed.toString()).doesNotContain("eyJ"); // no token is ever returned

        String policy = http.post("/v1/projects/" + project + "/policies", owner, Map.of("name", "corp",
                "connectors", List.of(Map.of("connectorId", connector, "allowedTools", List.of("whoami"),
                        "credentialId", credential)))).text("id");
        Http.Response t = http.post("/v1/orgs/" + org + "/api-tokens", owner, Map.of("name", "agent"));
        http.put("/v1/projects/" + project + "/members/api-tokens/" + t.text("id"), owner, Map.of("role", "MEMBER"));
        http.post("/v1/projects/" + project + "/policy-bindings", owner, Map.of("policyId", policy, "apiTokenId",
                t.text("id")));
        Http.Response call = http.post("/v1/projects/" + project + "/mcp-servers/tools/call", t.text("token"),
                Map.of("name", "corp__whoami", "arguments", Map.of()));
        assertThat(call.status()).as(call.raw()).isEqualTo(200);
        assertThat(call.body().path("isError").asBoolean()).as(call.raw()).isFalse();
        assertThat(call.body().path("structuredContent").path("verifiedIssuer").asText())
                .isEqualTo(idp.issuerUrl("default").toString());
    }

    private String base() {
        return "http://127.0.0.1:" + api.getAddress().getPort();
    }

    private HttpServer api() {
        try {
            HttpServer s = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
            s.createContext("/.well-known/oauth-protected-resource", ex -> send(ex, 200, "{\"resource\":\"" + base()
                    + "/api\",\"authorization_servers\":[\"" + idp.issuerUrl("default") + "\"]}", null));
            s.createContext("/api", this::serve);
            s.start();
            return s;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Answers only a bearer token the provider signed: its issuer, after checking the signature. */
    private void serve(HttpExchange ex) throws IOException {
        ex.getRequestBody().readAllBytes();
        String auth = ex.getRequestHeaders().getFirst("Authorization");
        String challenge = "Bearer resource_metadata=\"" + base() + "/.well-known/oauth-protected-resource\"";
        if (auth == null || !auth.startsWith("Bearer ")) {
            send(ex, 401, "{\"error\":\"unauthorized\"}", challenge);
            return;
        }
        try {
            SignedJWT jwt = SignedJWT.parse(auth.substring(7));
            RSAKey key = (RSAKey) JWKSet.load(idp.jwksUrl("default").url()).getKeyByKeyId(jwt.getHeader().getKeyID());
            if (key == null || !jwt.verify(new RSASSAVerifier(key))) {
                send(ex, 401, "{\"error\":\"bad signature\"}", challenge);
                return;
            }
            send(ex, 200, "{\"verifiedIssuer\":\"" + jwt.getJWTClaimsSet().getIssuer() + "\"}", null);
        } catch (Exception e) {
            send(ex, 401, "{\"error\":\"not a token\"}", challenge);
        }
    }

    private static void send(HttpExchange ex, int status, String body, String challenge) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", "application/json");
        if (challenge != null) {
            ex.getResponseHeaders().add("WWW-Authenticate", challenge);
        }
        ex.sendResponseHeaders(status, bytes.length);
        try (ex) {
            ex.getResponseBody().write(bytes);
        }
    }
}
