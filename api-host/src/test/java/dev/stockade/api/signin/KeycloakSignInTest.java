package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.kernel.identity.BrowserSession;
import dev.stockade.api.support.Keycloak;
import dev.stockade.api.support.Chromium;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Browser sign-in with an external identity provider, a real Keycloak: {@code /} sends the browser to Keycloak's own
 * login page, the code comes back to {@code /signin/callback} and is exchanged with PKCE at Keycloak's token endpoint,
 * the access token is checked (issuer, {@code oidc.audience}, verified owner email, the direct-access realm role)
 * exactly as a bearer token, and the admin UI then acts as the person. A person without the role gets no session.
 */
@MicronautTest(transactional = false)
class KeycloakSignInTest extends PlatformTest {
    private static Keycloak keycloak;
    private final int port = Node.freePort();
    private WebDriver browser;
    private WebDriverWait wait;

    @Override
    protected Map<String, String> extraProperties() {
        if (keycloak == null) {
            keycloak = Keycloak.start();
        }
        return Map.of("micronaut.server.port", Integer.toString(port), "config.public-url", base(),
                "oidc.issuer", keycloak.issuer(), "oidc.audience", "stockade-api", "oidc.client-id", "stockade",
                "oidc.direct-access-role", "stockade-direct", "config.owner-emails", "grace@example.com");
    }

    private String base() {
        return "http://127.0.0.1:" + port;
    }

    @BeforeAll
    void startBrowser() {
        browser = Chromium.headless();
        wait = new WebDriverWait(browser, Duration.ofSeconds(60));
    }

    @AfterAll
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (keycloak != null) {
            keycloak.close();
            keycloak = null;
        }
    }

    private void signInAtKeycloak(String user, String password) {
        // every cookie of the browser, Keycloak's single sign-on session included (WebDriver's own deletion reaches
        // only the cookies the current page's path sees)
        ((ChromeDriver) browser).executeCdpCommand("Network.clearBrowserCookies", Map.of());
        browser.get(base() + "/");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("username")));
        assertThat(browser.getCurrentUrl()).startsWith(keycloak.issuer() + "/protocol/openid-connect/auth?")
                .contains("code_challenge_method=S256").contains("client_id=stockade");
        browser.findElement(By.id("username")).sendKeys(user);
        browser.findElement(By.id("password")).sendKeys(password, Keys.ENTER);
    }

    @Test
    void aPersonSignsInAtKeycloakAndTheUiActsAsThem() {
        signInAtKeycloak("grace", "keycloak signs grace in");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("who")));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/ui/");
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("Grace Hopper (grace@example.com)");
        Cookie session = browser.manage().getCookieNamed(BrowserSession.COOKIE);
        assertThat(session.isHttpOnly()).isTrue();
        // Keycloak said the owner address is verified: the person may create an organization, through the UI
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("main h1"), "Organizations"));
        browser.findElement(By.cssSelector("#create-org input[name=name]")).sendKeys("keycloak-org", Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/orgs/[0-9a-f-]{36}$"));
        String orgId = browser.getCurrentUrl().replaceAll(".*/ui/orgs/", "");
        var members = http.get("/v1/orgs/" + orgId + "/members", ownerToken());
        assertThat(members.status()).isEqualTo(200);
        assertThat(members.raw()).contains("grace@example.com");
    }

    @Test
    void aPersonWithoutTheDirectAccessRoleGetsNoSession() {
        signInAtKeycloak("norole", "keycloak signs norole in");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("p.error")));
        assertThat(browser.findElement(By.cssSelector("p.error")).getText())
                .contains("direct access needs the role `stockade-direct`");
        assertThat(browser.manage().getCookieNamed(BrowserSession.COOKIE)).isNull();
    }
}
