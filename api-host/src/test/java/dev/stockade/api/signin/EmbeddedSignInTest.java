package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.kernel.config.PlatformConfig;
import dev.stockade.api.kernel.db.Sql;
import dev.stockade.api.kernel.secrets.SecretBox;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.net.http.HttpResponse;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The embedded sign-in provider end to end over real HTTP: an account made with the owner token, a client registered
 * dynamically, the login page with its CSRF token, the code with PKCE S256, the tokens bound to their resource,
 * refresh rotation with reuse detection, revocation, and the protected-resource discovery an MCP client starts from.
 */
@MicronautTest(transactional = false)
class EmbeddedSignInTest extends PlatformTest {
    static final String EMAIL = "ada@example.com";
    static final String PASSWORD = "correct horse battery";
    static final String REDIRECT = "http://127.0.0.1:41999/callback";
    private final int port = Node.freePort();

    @Inject
    Sql sql;
    @Inject
    SecretBox box;
    @Inject
    PlatformConfig config;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("micronaut.server.port", Integer.toString(port), "config.public-url", base());
    }

    String base() {
        return "http://127.0.0.1:" + port;
    }

    @BeforeAll
    void account() {
        SignInSteps.createAccount(new FormBrowser(java.net.URI.create(base())), ownerTokenWhenReady(), EMAIL, "Ada",
                PASSWORD);
    }

    private String ownerTokenWhenReady() {
        dev.stockade.testing.Await.until("the owner token file", () -> java.nio.file.Files.exists(
                dataDir.resolve("owner-token")));
        return ownerToken();
    }

    @Test
    void protectedResourceMetadataNamesTheExactResourceAndTheServer() {
        JsonNode mcp = http.get("/.well-known/oauth-protected-resource/mcp", null).body();
        assertThat(mcp.path("resource").asText()).isEqualTo(base() + "/mcp");
        assertThat(mcp.path("authorization_servers").get(0).asText()).isEqualTo(base());
        JsonNode project = http.get("/.well-known/oauth-protected-resource/projects/p-1/mcp", null).body();
        assertThat(project.path("resource").asText()).isEqualTo(base() + "/projects/p-1/mcp");
        JsonNode rest = http.get("/.well-known/oauth-protected-resource", null).body();
        assertThat(rest.path("resource").asText()).isEqualTo(base() + "/v1");
    }

    @Test
    void aMissingOrBadTokenAt401PointsToTheResourceMetadata() throws Exception {
        HttpResponse<String> none = new FormBrowser(java.net.URI.create(base())).postJson("/mcp", Map.of());
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer resource_metadata=\""
                + base() + "/.well-known/oauth-protected-resource/mcp\"");
        Http.Response bad = http.post("/projects/" + java.util.UUID.randomUUID() + "/mcp", "not.a.jwt", Map.of());
        assertThat(bad.status()).isEqualTo(401);
        var raw = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                java.net.URI.create(base() + "/projects/abc/mcp")).header("Authorization", "Bearer x.y.z")
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(raw.headers().firstValue("WWW-Authenticate")).contains("Bearer resource_metadata=\"" + base()
                + "/.well-known/oauth-protected-resource/projects/abc/mcp\", error=\"invalid_token\"");
    }

    @Test
    void serverMetadataIsLabelledAndOffersOnlyS256() {
        JsonNode m = http.get("/.well-known/oauth-authorization-server", null).body();
        assertThat(m.path("issuer").asText()).isEqualTo(base());
        assertThat(m.path("description").asText()).contains("one machine").contains("oidc.*");
        assertThat(m.path("code_challenge_methods_supported").toString()).isEqualTo("[\"S256\"]");
        assertThat(m.path("registration_endpoint").asText()).isEqualTo(base() + "/signin/register");
        assertThat(http.get("/.well-known/openid-configuration", null).body()).isEqualTo(m);
        assertThat(http.get("/signin/jwks", null).body().path("keys").get(0).has("d")).isFalse();
    }

    @Test
    void aSignedInPersonUsesTheRestApiWithTheTokenForIt() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        JsonNode tokens = SignInSteps.signIn(browser, client, REDIRECT, null, EMAIL, PASSWORD);
        Http.Response me = http.get("/v1/auth/me", tokens.path("access_token").asText());
        assertThat(me.status()).as(me.raw()).isEqualTo(200);
        assertThat(me.text("type")).isEqualTo("user");
        assertThat(me.text("email")).isEqualTo(EMAIL);
        assertThat(tokens.path("token_type").asText()).isEqualTo("Bearer");
    }

    @Test
    void aTokenForOneProjectsMcpOpensNeitherAnotherProjectNorTheRestApi() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        String a = java.util.UUID.randomUUID().toString();
        String b = java.util.UUID.randomUUID().toString();
        String token = SignInSteps.signIn(browser, client, REDIRECT, base() + "/projects/" + a + "/mcp", EMAIL,
                PASSWORD).path("access_token").asText();
        Http.Response other = http.post("/projects/" + b + "/mcp", token, Map.of());
        assertThat(problem(other, 401)).isEqualTo("unauthenticated");
        assertThat(other.text("detail")).contains("another resource");
        assertThat(problem(http.get("/v1/auth/me", token), 401)).isEqualTo("unauthenticated");
        // on its own resource the token passes authentication: what follows is the authorization table's answer
        assertThat(http.post("/projects/" + a + "/mcp", token, Map.of()).status()).isNotEqualTo(401);
    }

    @Test
    void theLoginPageIsFramedByNoOneRunsNoScriptAndNeedsItsCsrfToken() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        String verifier = FormBrowser.verifier();
        HttpResponse<String> page = browser.get(SignInSteps.authorizeUrl(client, REDIRECT, verifier, "S256", null));
        assertThat(page.statusCode()).isEqualTo(200);
        String csp = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertThat(csp).contains("default-src 'none'").contains("frame-ancestors 'none'").doesNotContain("script-src");
        assertThat(page.headers().firstValue("X-Frame-Options")).contains("DENY");
        assertThat(page.body()).contains(SignInPages.EMBEDDED_LABEL).doesNotContain("<script");
        assertThat(page.headers().allValues("Set-Cookie")).anyMatch(c -> c.startsWith(Csrf.COOKIE + "=")
                && c.toLowerCase(java.util.Locale.ROOT).contains("httponly") && c.contains("SameSite=Strict"));
        Map<String, String> form = new LinkedHashMap<>(FormBrowser.hiddenFields(page.body()));
        form.put(Csrf.FIELD, "forged-token-from-another-site");
        form.put("email", EMAIL);
        form.put("password", PASSWORD);
        HttpResponse<String> forged = browser.postForm("/signin/authorize", form);
        assertThat(forged.statusCode()).isEqualTo(403);
        assertThat(forged.headers().firstValue("Location")).isEmpty();
    }

    @Test
    void plainPkceIsRefusedBackAtTheClient() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        HttpResponse<String> r = browser.get(SignInSteps.authorizeUrl(client, REDIRECT, "x".repeat(43), "plain", null));
        assertThat(r.statusCode()).isEqualTo(303);
        String to = r.headers().firstValue("Location").orElseThrow();
        assertThat(to).startsWith(REDIRECT);
        assertThat(FormBrowser.query(to, "error")).isEqualTo("invalid_request");
        assertThat(FormBrowser.query(to, "state")).isEqualTo("st-1");
    }

    @Test
    void anUnregisteredRedirectIsNeverFollowedButALoopbackPortMayDiffer() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        String v = FormBrowser.verifier();
        HttpResponse<String> evil = browser.get(SignInSteps.authorizeUrl(client, "https://evil.example/cb", v, "S256",
                null));
        assertThat(evil.statusCode()).isEqualTo(400);
        assertThat(evil.headers().firstValue("Location")).isEmpty();
        HttpResponse<String> otherPort = browser.get(SignInSteps.authorizeUrl(client,
                "http://127.0.0.1:50123/callback", v, "S256", null));
        assertThat(otherPort.statusCode()).isEqualTo(200);
        HttpResponse<String> otherPath = browser.get(SignInSteps.authorizeUrl(client,
                "http://127.0.0.1:50123/elsewhere", v, "S256", null));
        assertThat(otherPath.statusCode()).isEqualTo(400);
    }

    @Test
    void aWrongPasswordIsAnsweredAfterASecondAndAudited() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        HttpResponse<String> page = browser.get(SignInSteps.authorizeUrl(client, REDIRECT, FormBrowser.verifier(),
                "S256", null));
        Map<String, String> form = new LinkedHashMap<>(FormBrowser.hiddenFields(page.body()));
        form.put("email", EMAIL);
        form.put("password", "not the password!");
        long start = System.nanoTime();
        HttpResponse<String> wrong = browser.postForm("/signin/authorize", form);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(wrong.body()).contains("Wrong email or password.").doesNotContain("not the password!");
        assertThat(millis).isGreaterThanOrEqualTo(WrongAnswerDelay.DELAY.toMillis());
        assertThat(sql.exists("SELECT 1 FROM audit_entries WHERE action = 'sign-in' AND outcome = 'denied'",
                java.util.List.of())).isTrue();
    }

    @Test
    void aCodeWorksOnceAndOnlyWithItsVerifier() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        String verifier = FormBrowser.verifier();
        String code = SignInSteps.code(browser, client, REDIRECT, verifier, null, EMAIL, PASSWORD);
        HttpResponse<String> wrong = SignInSteps.exchange(browser, client, REDIRECT, code, FormBrowser.verifier());
        assertThat(wrong.statusCode()).isEqualTo(400);
        assertThat(FormBrowser.json(wrong).path("error").asText()).isEqualTo("invalid_grant");
        // the failed attempt used the code up: a thief who guessed wrong cannot retry, nor can the owner
        HttpResponse<String> again = SignInSteps.exchange(browser, client, REDIRECT, code, verifier);
        assertThat(FormBrowser.json(again).path("error").asText()).isEqualTo("invalid_grant");
    }

    @Test
    void refreshTokensRotateAndAReusedOneEndsTheFamily() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        JsonNode first = SignInSteps.signIn(browser, client, REDIRECT, null, EMAIL, PASSWORD);
        HttpResponse<String> second = SignInSteps.refresh(browser, client, first.path("refresh_token").asText());
        assertThat(second.statusCode()).as(second.body()).isEqualTo(200);
        String newer = FormBrowser.json(second).path("refresh_token").asText();
        assertThat(newer).isNotEqualTo(first.path("refresh_token").asText());
        assertThat(http.get("/v1/auth/me", FormBrowser.json(second).path("access_token").asText()).status())
                .isEqualTo(200);
        HttpResponse<String> replay = SignInSteps.refresh(browser, client, first.path("refresh_token").asText());
        assertThat(FormBrowser.json(replay).path("error").asText()).isEqualTo("invalid_grant");
        assertThat(FormBrowser.json(SignInSteps.refresh(browser, client, newer)).path("error").asText())
                .isEqualTo("invalid_grant");
    }

    @Test
    void revocationEndsTheRefreshToken() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        String client = SignInSteps.register(browser, REDIRECT);
        JsonNode tokens = SignInSteps.signIn(browser, client, REDIRECT, null, EMAIL, PASSWORD);
        HttpResponse<String> revoked = browser.postForm("/signin/revoke", Map.of("token",
                tokens.path("refresh_token").asText(), "token_type_hint", "refresh_token"));
        assertThat(revoked.statusCode()).isEqualTo(200);
        assertThat(FormBrowser.json(SignInSteps.refresh(browser, client, tokens.path("refresh_token").asText()))
                .path("error").asText()).isEqualTo("invalid_grant");
    }

    @Test
    void theSigningKeyIsStoredSealedAndReadBackAfterARestart() {
        String stored = sql.first("SELECT sealed_jwk FROM signin_keys", java.util.List.of(), rs -> rs.getString(1))
                .orElseGet(() -> {
                    http.get("/signin/jwks", null);
                    return sql.first("SELECT sealed_jwk FROM signin_keys", java.util.List.of(),
                            rs -> rs.getString(1)).orElseThrow();
                });
        assertThat(stored).doesNotContain("\"d\"").doesNotContain("P-256");
        // a new process reads the same row: another instance over the same database and key-encryption key
        SigningKeys restarted = new SigningKeys(sql, box, config);
        assertThat(restarted.signingKey().getKeyID()).isEqualTo(http.get("/signin/jwks", null).body().path("keys")
                .get(0).path("kid").asText());
    }

    @Test
    void registrationRefusesAPlainHttpRedirectToAnotherHost() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        HttpResponse<String> r = browser.postJson("/signin/register", Map.of("redirect_uris",
                java.util.List.of("http://evil.example/cb")));
        assertThat(r.statusCode()).isEqualTo(400);
        assertThat(FormBrowser.json(r).path("error").asText()).isEqualTo("invalid_redirect_uri");
    }
}
