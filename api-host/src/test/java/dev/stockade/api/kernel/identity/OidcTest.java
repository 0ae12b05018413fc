package dev.stockade.api.kernel.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Sign-in through a real OIDC provider (mock-oauth2-server in-process: discovery, JWKS, signed tokens). */
@MicronautTest(transactional = false)
class OidcTest extends OidcPlatformTest {
    @Override
    protected Map<String, String> oidcTestProperties() {
        return Map.of("config.owner-emails", "owner@example.com");
    }

    @Test
    void aVerifiedOwnerEmailSignsInCreatesAnOrganizationAndBecomesItsAdmin() {
        String alice = token("alice", Map.of("email", "owner@example.com", "email_verified", true, "name", "Alice"));
        Http.Response me = http.get("/v1/auth/me", alice);
        assertThat(me.text("type")).isEqualTo("user");
        assertThat(me.text("email")).isEqualTo("owner@example.com");
        String org = createOrg(alice, "alice-co");
        Http.Response members = http.get("/v1/orgs/" + org + "/members", alice);
        assertThat(members.body().path("items").get(0).path("role").asText()).isEqualTo("ADMIN");
        // the next sign-in (a new token) is audited in the organization
        http.get("/v1/auth/me", token("alice", Map.of("email", "owner@example.com", "email_verified", true)));
        assertThat(http.get("/v1/orgs/" + org + "/audit-trail?action=sign-in", alice).body().path("items").size())
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void anOwnerAddressWhoseEmailIsNotVerifiedIsRefused() {
        String mallory = token("mallory", Map.of("email", "owner@example.com", "email_verified", false));
        assertThat(problem(http.get("/v1/auth/me", mallory), 403)).isEqualTo("email_not_verified");
    }

    @Test
    void onlyOwnerEmailsMayCreateOrganizations() {
        String bob = token("bob", Map.of("email", "bob@example.com", "email_verified", true));
        assertThat(http.get("/v1/auth/me", bob).status()).isEqualTo(200);
        assertThat(problem(http.post("/v1/orgs", bob, Map.of("name", "nope")), 403)).isEqualTo("forbidden");
    }

    @Test
    void tokensForAnotherAudienceTamperedOrExpiredAreNotAccepted() {
        String other = idp.issueToken("default", "eve", "another-client", Map.of(), 3600).serialize();
        assertThat(problem(http.get("/v1/auth/me", other), 401)).isEqualTo("unauthenticated");
        String expired = idp.issueToken("default", "eve", "stockade", Map.of(), -120).serialize();
        assertThat(problem(http.get("/v1/auth/me", expired), 401)).isEqualTo("unauthenticated");
        String good = token("eve", Map.of("email", "eve@example.com"));
        String[] parts = good.split("\\.");
        String forged = parts[0] + "." + java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"sub\":\"owner\",\"aud\":\"stockade\",\"iss\":\"x\"}".getBytes()) + "." + parts[2];
        assertThat(problem(http.get("/v1/auth/me", forged), 401)).isEqualTo("unauthenticated");
    }

    @Test
    void anInvitedPersonAcceptsAndBecomesAMember() {
        String owner = ownerToken();
        String org = createOrg(owner, "inviting");
        Http.Response inv = http.post("/v1/orgs/" + org + "/invitations", owner,
                Map.of("email", "Carol@Example.com", "role", "MEMBER"));
        assertThat(inv.status()).as(inv.raw()).isEqualTo(201);
        String unverified = token("carol", Map.of("email", "carol@example.com", "email_verified", false));
        assertThat(http.get("/v1/invitations", unverified).body().path("items")).isEmpty();
        String carol = token("carol", Map.of("email", "carol@example.com", "email_verified", true));
        assertThat(http.get("/v1/invitations", carol).body().path("items")).hasSize(1);
        assertThat(problem(http.get("/v1/orgs/" + org, carol), 404)).isEqualTo("not_found");
        assertThat(http.post("/v1/invitations/" + inv.text("id") + "/accept", carol, null).status()).isEqualTo(200);
        assertThat(http.get("/v1/orgs/" + org, carol).text("name")).isEqualTo("inviting");
        // a member, not an admin: may read the halt state but not set it
        assertThat(http.get("/v1/orgs/" + org + "/halt", carol).status()).isEqualTo(200);
        assertThat(problem(http.post("/v1/orgs/" + org + "/halt", carol, null), 403)).isEqualTo("forbidden");
    }

    @Test
    void theTokenRelayForwardsSignInGrantsOnly() {
        Http.Response relayed = http.send("POST", "/oauth/token", null, "application/x-www-form-urlencoded",
                "grant_type=authorization_code&code=abc&client_id=stockade&redirect_uri=http%3A%2F%2Flocalhost%2Fcb");
        assertThat(relayed.status()).as(relayed.raw()).isEqualTo(200);
        assertThat(relayed.body().path("access_token").asText()).isNotEmpty();
        for (String grant : new String[] {"client_credentials", "password",
                "urn:ietf:params:oauth:grant-type:token-exchange"}) {
            Http.Response refused = http.send("POST", "/oauth/token", null, "application/x-www-form-urlencoded",
                    "grant_type=" + java.net.URLEncoder.encode(grant, java.nio.charset.StandardCharsets.UTF_8)
                            + "&client_id=stockade&client_secret=x");
            assertThat(problem(refused, 400)).isEqualTo("unsupported_grant_type");
        }
    }
}
