package dev.stockade.api.identity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import no.nav.security.mock.oauth2.MockOAuth2Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

/** {@code oidc.directAccessReportOnly}: the role check logs would-be refusals and lets the person in. */
@MicronautTest(transactional = false)
class DirectAccessReportOnlyTest extends PlatformTest {
    private final MockOAuth2Server idp = started();

    private static MockOAuth2Server started() {
        MockOAuth2Server s = new MockOAuth2Server();
        s.start();
        return s;
    }

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("oidc.issuer", idp.issuerUrl("default").toString(), "oidc.audience", "stockade",
                "oidc.direct-access-role", "stockade-user", "oidc.direct-access-report-only", "true");
    }

    @AfterAll
    void stopIdp() {
        idp.shutdown();
    }

    @Test
    void aPersonWithoutTheRoleIsLetInWhileReporting() {
        String without = idp.issueToken("default", "gil", "stockade", Map.of("email", "gil@example.com"), 3600).serialize();
        assertThat(http.get("/v1/auth/me", without).text("type")).isEqualTo("user");
    }
}
