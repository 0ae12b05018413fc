package dev.stockade.api.signin;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Chromium;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.net.URI;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Cookie;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Browser sign-in in a real browser (headless Debian chromium): {@code /} sends a signed-out person to the embedded
 * provider's login page, the page is filled in and submitted, the admin UI names the person, the session cookie
 * is {@code HttpOnly} and {@code SameSite=Lax}, and sign-out ends the session on the server.
 */
@MicronautTest(transactional = false)
class BrowserSignInTest extends PlatformTest {
    private static final String EMAIL = "linus@example.com";
    private static final String PASSWORD = "browsers sign in too";
    private final int port = Node.freePort();
    private WebDriver browser;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("micronaut.server.port", Integer.toString(port), "config.public-url", base());
    }

    /** The loopback address the README walk-through opens. */
    private String base() {
        return "http://127.0.0.1:" + port;
    }

    @BeforeAll
    void startBrowser() {
        browser = Chromium.headless();
    }

    @AfterAll
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    @Test
    void aPersonSignsInOnTheLoginPageAndSignsOut() {
        Await.until("the owner token file", () -> Files.exists(dataDir.resolve("owner-token")));
        SignInSteps.createAccount(new FormBrowser(URI.create(base())), ownerToken(), EMAIL, "Linus", PASSWORD);
        WebDriverWait wait = new WebDriverWait(browser, Duration.ofSeconds(30));

        browser.get(base() + "/");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("password")));
        assertThat(browser.getCurrentUrl()).startsWith(base() + "/signin/authorize?");
        assertThat(browser.getPageSource()).contains(SignInPages.EMBEDDED_LABEL);
        browser.findElement(By.id("email")).sendKeys(EMAIL);
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();

        try {
            wait.until(ExpectedConditions.presenceOfElementLocated(By.id("who")));
        } catch (org.openqa.selenium.TimeoutException e) {
            throw new AssertionError("not signed in: at " + browser.getCurrentUrl() + " " + browser.getPageSource(), e);
        }
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/ui/");
        // the admin UI's first view is drawn from the API, called with the session: the person's organizations
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("h1"), "Organizations"));
        assertThat(browser.findElement(By.id("who")).getText()).isEqualTo("Linus (" + EMAIL + ")");
        Cookie session = browser.manage().getCookieNamed(BrowserController.SESSION_COOKIE);
        assertThat(session.isHttpOnly()).isTrue();
        assertThat(session.getSameSite()).isEqualTo("Lax");
        assertThat(session.getPath()).isEqualTo("/");
        assertThat(session.isSecure()).isFalse(); // plain http on loopback; https public URLs get Secure

        browser.findElement(By.id("signout")).click();
        wait.until(ExpectedConditions.titleIs("Signed out"));
        // the old cookie, replayed by hand, no longer opens the landing page: the session ended on the server
        FormBrowser replay = new FormBrowser(URI.create(base()));
        var answer = replay.getWithCookie("/", BrowserController.SESSION_COOKIE + "=" + session.getValue());
        assertThat(answer.statusCode()).isEqualTo(303);
        assertThat(answer.headers().firstValue("Location").orElseThrow()).startsWith(base() + "/signin/authorize?");
        assertThat(List.of(answer.headers().allValues("Set-Cookie"))).isNotEmpty();
    }
}
