package dev.stockade.api.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** {@code oidc.directAccessRole}: only people holding the realm role use the platform directly. */
@MicronautTest(transactional = false)
class DirectAccessRoleTest extends PlatformTest {
    private final MockOAuth2Server idp = started();

    private static MockOAuth2Server started() {
        MockOAuth2Server s = new MockOAuth2Server();
        s.start();
        return s;
    }

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("oidc.issuer", idp.issuerUrl("default").toString(), "oidc.audience", "stockade",
                "oidc.direct-access-role", "stockade-user");
    }

    @AfterAll
    void stopIdp() {
        idp.shutdown();
    }

    @Test
    void peopleWithoutTheRoleAreRefusedAndTokensAreNotConcerned() {
        String without = idp.issueToken("default", "dan", "stockade", Map.of("email", "dan@example.com"), 3600).serialize();
        assertThat(problem(http.get("/v1/auth/me", without), 403)).isEqualTo("direct_access_denied");
        String keycloakStyle = idp.issueToken("default", "erin", "stockade",
                Map.of("realm_access", Map.of("roles", List.of("stockade-user"))), 3600).serialize();
        assertThat(http.get("/v1/auth/me", keycloakStyle).text("type")).isEqualTo("user");
        String plainRoles = idp.issueToken("default", "fay", "stockade", Map.of("roles", List.of("stockade-user")),
                3600).serialize();
        assertThat(http.get("/v1/auth/me", plainRoles).status()).isEqualTo(200);
        // the role governs people signing in; API tokens are issued by org admins and are not people
        assertThat(http.get("/v1/auth/me", ownerToken()).status()).isEqualTo(200);
    }
}
