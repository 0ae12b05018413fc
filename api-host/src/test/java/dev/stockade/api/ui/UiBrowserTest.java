package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.signin.FormBrowser;
import dev.stockade.api.signin.SignInSteps;
import dev.stockade.api.support.Chromium;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.testing.Await;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin UI in a real browser (headless Debian chromium) against the real platform on embedded PostgreSQL: a
 * person whose address is an owner email signs in on the embedded provider's login page, then the test drives views.
 * Accessibility is checked by axe-core (npm, installed by {@code .ci/run}) on every view a test visits, and each view
 * is kept as a screenshot under {@code target/ui-screenshots} for people to look at.
 */
public abstract class UiBrowserTest extends PlatformTest {
    protected static final String EMAIL = "grace@example.com";
    protected static final String NAME = "Grace";
    private static final String PASSWORD = "an admin UI needs a person";
    private static final Path AXE = Node.DIR.resolve("node_modules/axe-core/axe.min.js");
    private static final Path SHOTS = Path.of("target/ui-screenshots");
    protected final int port = Node.freePort();
    protected WebDriver browser;
    protected WebDriverWait wait;

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("micronaut.server.port", Integer.toString(port), "config.public-url", base(),
                "config.owner-emails", EMAIL);
    }

    protected String base() {
        return "http://127.0.0.1:" + port;
    }

    @BeforeAll
    void startBrowserAndSignIn() {
        assertThat(AXE).as("axe-core: run `npm ci --prefix api-host/src/test/node` (.ci/run does)").exists();
        browser = Chromium.headless("--window-size=1280,900");
        wait = new WebDriverWait(browser, Duration.ofSeconds(30));
        Await.until("the owner token file", () -> Files.exists(dataDir.resolve("owner-token")));
        SignInSteps.createAccount(new FormBrowser(URI.create(base())), ownerToken(), EMAIL, NAME, PASSWORD);
        browser.get(base() + "/");
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("password")));
        browser.findElement(By.id("email")).sendKeys(EMAIL);
        browser.findElement(By.id("password")).sendKeys(PASSWORD);
        browser.findElement(By.cssSelector("button[type=submit]")).click();
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("who")));
    }

    @AfterAll
    void stopBrowser() {
        if (browser != null) {
            browser.quit();
        }
    }

    /** Opens a UI address (after {@code /ui}) and waits for its heading. */
    protected void open(String path, String heading) {
        browser.get(base() + "/ui" + path);
        waitForHeading(heading);
    }

    protected void waitForHeading(String heading) {
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("main h1"), heading));
    }

    protected WebElement waitFor(String css) {
        return wait.until(ExpectedConditions.visibilityOfElementLocated(By.cssSelector(css)));
    }

    /**
     * Clicks the element {@code css} names once it is shown, looking it up again when the view re-rendered it between
     * the lookup and the click (a view refreshes itself when the sandbox's state or the data behind it changes).
     */
    protected void click(String css) {
        new WebDriverWait(browser, Duration.ofSeconds(30))
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class)
                .ignoring(org.openqa.selenium.NoSuchElementException.class)
                .until(d -> {
                    WebElement e = d.findElement(By.cssSelector(css));
                    if (!e.isDisplayed()) {
                        return false;
                    }
                    e.click();
                    return true;
                });
    }

    /**
     * axe-core's serious and critical violations on the current view, as readable lines (empty when none), and a
     * screenshot named {@code name}.
     */
    @SuppressWarnings("unchecked")
    protected List<String> accessibilityProblems(String name) {
        screenshot(name);
        JavascriptExecutor js = (JavascriptExecutor) browser;
        try {
            js.executeScript(Files.readString(AXE));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Object found = js.executeAsyncScript("const done = arguments[arguments.length - 1];"
                + "axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations"
                + ".filter(v => v.impact === 'serious' || v.impact === 'critical')"
                + ".map(v => v.id + ': ' + v.help + ' @ ' + v.nodes.map(n => n.target.join(' ')).join(', '))))"
                + ".catch(e => done(['axe failed: ' + e]));");
        return (List<String>) found;
    }

    protected void screenshot(String name) {
        try {
            Files.createDirectories(SHOTS);
            Files.write(SHOTS.resolve(getClass().getSimpleName() + "-" + name + ".png"),
                    ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Calls the REST API from the page, with the person's session, as the UI's own api.js does; a refusal fails. */
    protected com.fasterxml.jackson.databind.JsonNode call(String method, String path, String body) throws Exception {
        Object answer = ((JavascriptExecutor) browser).executeAsyncScript("""
                const [method, path, body, done] = arguments;
                import('/ui/assets/api.js')
                  .then(m => m.api(method, path, body === null ? undefined : JSON.parse(body)))
                  .then(r => done(JSON.stringify(r)), e => done(JSON.stringify({ refused: e.message })));
                """, method, path, body);
        com.fasterxml.jackson.databind.JsonNode node = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree((String) answer);
        assertThat(node.has("refused")).as(String.valueOf(answer)).isFalse();
        return node;
    }
}
