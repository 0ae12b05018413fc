package dev.stockade.api.kernel.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.OidcPlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code oidc.directAccessReportOnly}: the role check logs would-be refusals and lets the person in. */
@MicronautTest(transactional = false)
class DirectAccessReportOnlyTest extends OidcPlatformTest {
    @Override
    protected Map<String, String> oidcTestProperties() {
        return Map.of("oidc.direct-access-role", "stockade-user", "oidc.direct-access-report-only", "true");
    }

    @Test
    void aPersonWithoutTheRoleIsLetInWhileReporting() {
        String without = idp.issueToken("default", "gil", "stockade", Map.of("email", "gil@example.com"), 3600).serialize();
        assertThat(http.get("/v1/auth/me", without).text("type")).isEqualTo("user");
    }
}
