package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.identity.BrowserSession;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The admin UI's calls: a browser session authenticates a REST request only with the page's CSRF token, as the same
 * person a bearer token would name, and not after sign-out; the UI's shell and assets need no session but the shell
 * sends a visitor without one to sign in.
 */
@MicronautTest(transactional = false)
class BrowserSessionApiTest extends SignInPlatformTest {
    private static final Pattern CSRF = Pattern.compile("<meta name=\"stockade-csrf\" content=\"([^\"]+)\">");

    @Test
    void aSessionCallsTheApiOnlyWithItsCsrfToken() {
        FormBrowser browser = account("ada@example.com");
        HttpResponse<String> signedIn = browserSignIn(browser, "ada@example.com");
        assertThat(signedIn.statusCode()).as(signedIn.body()).isEqualTo(303);
        String cookie = signedIn.headers().allValues("Set-Cookie").stream()
                .filter(c -> c.startsWith(BrowserSession.COOKIE + "=")).findFirst().orElseThrow().split(";")[0];
        HttpResponse<String> home = browser.get("/");
        assertThat(home.statusCode()).isEqualTo(303);
        assertThat(home.headers().firstValue("Location")).hasValue("/ui/");
        HttpResponse<String> shell = browser.get("/ui/");
        assertThat(shell.statusCode()).isEqualTo(200);
        assertThat(shell.headers().firstValue("Content-Security-Policy").orElseThrow()).contains("script-src 'self'");
        Matcher m = CSRF.matcher(shell.body());
        assertThat(m.find()).as(shell.body()).isTrue();
        String csrf = m.group(1);

        HttpResponse<String> bare = browser.request("GET", "/v1/auth/me", Map.of(), null);
        assertThat(bare.statusCode()).isEqualTo(401);
        assertThat(bare.body()).contains("CSRF token");
        HttpResponse<String> forged = browser.request("GET", "/v1/auth/me",
                Map.of(BrowserSession.CSRF_HEADER, BrowserSession.csrfToken("another session")), null);
        assertThat(forged.statusCode()).isEqualTo(401);

        HttpResponse<String> me = browser.request("GET", "/v1/auth/me", Map.of(BrowserSession.CSRF_HEADER, csrf), null);
        assertThat(me.statusCode()).as(me.body()).isEqualTo(200);
        assertThat(FormBrowser.json(me).path("type").asText()).isEqualTo("user");
        assertThat(FormBrowser.json(me).path("email").asText()).isEqualTo("ada@example.com");
        HttpResponse<String> orgs = browser.request("GET", "/v1/orgs", Map.of(BrowserSession.CSRF_HEADER, csrf), null);
        assertThat(orgs.statusCode()).isEqualTo(200);
        // a person who is no owner email cannot create an organization, by session as by token: the same table
        HttpResponse<String> create = browser.request("POST", "/v1/orgs", Map.of(BrowserSession.CSRF_HEADER, csrf),
                "{\"name\":\"acme\"}");
        assertThat(create.statusCode()).as(create.body()).isEqualTo(403);

        assertThat(browser.postForm("/signout", Map.of("csrf", csrf)).statusCode()).isEqualTo(200);
        // the old cookie, replayed by hand with its token, names nobody: the session ended on the server
        HttpResponse<String> after = browser.request("GET", "/v1/auth/me",
                Map.of(BrowserSession.CSRF_HEADER, csrf, "Cookie", cookie), null);
        assertThat(after.statusCode()).isEqualTo(401);
        assertThat(after.body()).contains("session has ended");
        assertThat(browser.get("/ui/orgs").statusCode()).isEqualTo(303);
    }

    @Test
    void assetsAreServedByNameOnly() {
        FormBrowser browser = new FormBrowser(java.net.URI.create(base()));
        HttpResponse<String> app = browser.get("/ui/assets/app.js");
        assertThat(app.statusCode()).isEqualTo(200);
        assertThat(app.headers().firstValue("Content-Type").orElseThrow()).startsWith("text/javascript");
        String etag = app.headers().firstValue("ETag").orElseThrow();
        assertThat(browser.request("GET", "/ui/assets/app.js", Map.of("If-None-Match", etag), null).statusCode())
                .isEqualTo(304);
        assertThat(browser.get("/ui/assets/nothing.js").statusCode()).isEqualTo(404);
        assertThat(browser.get("/ui/assets/..%2Fapplication.yml").statusCode()).isEqualTo(404);
        assertThat(browser.get("/ui/assets/pages/../../application.yml").statusCode()).isIn(400, 404);
        assertThat(browser.get("/ui/assets/logback.xml").statusCode()).isEqualTo(404);
        assertThat(browser.get("/ui/").statusCode()).isEqualTo(303);
    }
}
