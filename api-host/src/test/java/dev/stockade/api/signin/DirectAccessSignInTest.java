package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The direct-access role gate applied at browser sign-in exactly as to a bearer token: no role, no session. */
@MicronautTest(transactional = false)
class DirectAccessSignInTest extends SignInPlatformTest {
    @Override
    Map<String, String> gate() {
        return Map.of("oidc.direct-access-role", "stockade-direct");
    }

    @Test
    void aPersonWithoutTheRoleIsRefusedAtSignIn() {
        HttpResponse<String> refused = browserSignIn(account("norole@example.com"), "norole@example.com");
        assertThat(refused.statusCode()).isEqualTo(403);
        assertThat(refused.body()).contains("direct access needs the role `stockade-direct`");
        assertThat(refused.headers().allValues("Set-Cookie")).noneMatch(c -> c.startsWith("stockade_session="));
    }
}
