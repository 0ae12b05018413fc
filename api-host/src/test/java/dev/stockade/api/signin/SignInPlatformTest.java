package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Node;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A platform with the embedded provider on a known port (so its public URL is the address tests call), and the steps
 * of a person's browser sign-in over HTTP.
 */
abstract class SignInPlatformTest extends PlatformTest {
    static final String PASSWORD = "rules apply at sign-in";
    final int port = Node.freePort();

    String base() {
        return "http://127.0.0.1:" + port;
    }

    Map<String, String> gate() {
        return Map.of();
    }

    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new LinkedHashMap<>(gate());
        p.put("micronaut.server.port", Integer.toString(port));
        p.put("config.public-url", base());
        return p;
    }

    FormBrowser account(String email) {
        Await.until("the owner token file", () -> Files.exists(dataDir.resolve("owner-token")));
        FormBrowser browser = new FormBrowser(URI.create(base()));
        SignInSteps.createAccount(browser, ownerToken(), email, "Person", PASSWORD);
        return browser;
    }

    /** Runs the browser flow over HTTP: {@code /}, the login page, the callback; the last answer. */
    static HttpResponse<String> browserSignIn(FormBrowser browser, String email) {
        HttpResponse<String> start = browser.get("/");
        assertThat(start.statusCode()).as(start.body()).isEqualTo(303);
        HttpResponse<String> page = browser.get(start.headers().firstValue("Location").orElseThrow());
        Map<String, String> form = new LinkedHashMap<>(FormBrowser.hiddenFields(page.body()));
        form.put("email", email);
        form.put("password", PASSWORD);
        HttpResponse<String> posted = browser.postForm("/signin/authorize", form);
        if (posted.statusCode() != 303) {
            return posted;
        }
        return browser.get(posted.headers().firstValue("Location").orElseThrow());
    }
}
