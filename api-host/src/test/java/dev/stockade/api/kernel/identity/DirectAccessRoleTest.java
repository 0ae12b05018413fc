package dev.stockade.api.kernel.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code oidc.directAccessRole}: only people holding the realm role use the platform directly. */
@MicronautTest(transactional = false)
class DirectAccessRoleTest extends OidcPlatformTest {
    @Override
    protected Map<String, String> oidcTestProperties() {
        return Map.of("oidc.direct-access-role", "stockade-user");
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
