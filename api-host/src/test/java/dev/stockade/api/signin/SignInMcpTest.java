package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The official MCP TypeScript SDK client with its OAuth provider against the running platform: 401 with
 * {@code resource_metadata}, discovery, dynamic registration, the real login page, the code exchanged with PKCE, and
 * {@code tools/list}; the token it got for project A's endpoint is then refused on project B's.
 */
@MicronautTest(transactional = false)
class SignInMcpTest extends PlatformTest {
    private static final String EMAIL = "grace@example.com";
    private static final String PASSWORD = "a long enough password";
    private final int port = Node.freePort();

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("micronaut.server.port", Integer.toString(port), "config.public-url", base());
    }

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    @Test
    void theSdkSignsInWithPkceAndListsTheToolsOfItsProjectOnly() throws Exception {
        Await.until("the owner token file", () -> Files.exists(dataDir.resolve("owner-token")));
        String owner = ownerToken();
        FormBrowser browser = new FormBrowser(URI.create(base()));
        SignInSteps.createAccount(browser, owner, EMAIL, "Grace", PASSWORD);
        // the person signs in once for the REST API, so that their user exists and can be given a project
        String client = SignInSteps.register(browser, "http://127.0.0.1:40001/cb");
        String rest = SignInSteps.signIn(browser, client, "http://127.0.0.1:40001/cb", null, EMAIL, PASSWORD)
                .path("access_token").asText();
        String userId = http.get("/v1/auth/me", rest).text("id");
        String org = createOrg(owner, "signin-org");
        String a = createProject(owner, org, "project-a");
        String b = createProject(owner, org, "project-b");
        assertThat(http.put("/v1/orgs/" + org + "/members/" + userId, owner, Map.of("role", "MEMBER")).status())
                .isEqualTo(204);
        assertThat(http.put("/v1/projects/" + a + "/members/users/" + userId, owner, Map.of("role", "MEMBER"))
                .status()).isEqualTo(204);
        assertThat(http.put("/v1/projects/" + b + "/members/users/" + userId, owner, Map.of("role", "MEMBER"))
                .status()).isEqualTo(204);

        String mcpA = base() + "/projects/" + a + "/mcp";
        try (Node.Client sdk = Node.Client.script("mcp-oauth-client.mjs", mcpA, EMAIL, PASSWORD,
                base() + "/projects/" + b + "/mcp")) {
            JsonNode redirected = sdk.next("redirected");
            assertThat(redirected.path("authorize").asText()).isEqualTo(base() + "/signin/authorize");
            assertThat(redirected.path("method").asText()).isEqualTo("S256");
            assertThat(redirected.path("resource").asText()).isEqualTo(mcpA);
            assertThat(redirected.path("client").asText()).isNotBlank();
            JsonNode authorized = sdk.next("authorized");
            assertThat(authorized.path("refresh").asBoolean()).isTrue();
            JsonNode tools = sdk.next("tools");
            assertThat(tools.path("names").size()).isPositive();
            JsonNode other = sdk.next("other");
            assertThat(other.path("status").asInt()).isEqualTo(401);
            assertThat(other.path("challenge").asText()).contains("error=\"invalid_token\"")
                    .contains("/.well-known/oauth-protected-resource/projects/" + b + "/mcp");
            assertThat(sdk.finish()).isZero();
        }
        Http.Response registered = http.get("/v1/auth/me", rest);
        assertThat(registered.status()).isEqualTo(200);
    }
}
