package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The gate's report-only mode lets a person without the role sign in, and signing in through the browser accepts the
 * invitations addressed to their verified email.
 */
@MicronautTest(transactional = false)
class ReportOnlySignInTest extends SignInPlatformTest {
    @Override
    Map<String, String> gate() {
        return Map.of("oidc.direct-access-role", "stockade-direct", "oidc.direct-access-report-only", "true");
    }

    @Test
    void reportOnlyLetsThePersonInAndSigningInAcceptsTheirInvitation() {
        FormBrowser browser = account("invited@example.com");
        String owner = ownerToken();
        String org = createOrg(owner, "inviting-org");
        Http.Response invited = http.post("/v1/orgs/" + org + "/invitations", owner,
                Map.of("email", "invited@example.com", "role", "MEMBER"));
        assertThat(invited.status()).as(invited.raw()).isEqualTo(201);

        HttpResponse<String> done = browserSignIn(browser, "invited@example.com");
        assertThat(done.statusCode()).as(done.body()).isEqualTo(303);
        assertThat(done.headers().firstValue("Location")).contains("/");
        assertThat(browser.get("/ui/").body()).contains("invited@example.com"); // the admin UI names the person
        Http.Response members = http.get("/v1/orgs/" + org + "/members", owner);
        assertThat(members.raw()).contains("invited@example.com");
    }
}
