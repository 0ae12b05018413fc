package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.enrollment.DevHub;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * A platform started without enrollment, with a hub of its own: the UI leads to the setup screen, the setup code
 * enrolls through the hub, and once the hub goes away the UI warns that its heartbeat is not reaching it.
 */
@MicronautTest(transactional = false)
class TenancySetupTest extends TenancyBrowserTest {
    private final DevHub hub = new DevHub(dataDir.resolve("dev-hub.json"), 0);

    TenancySetupTest() throws IOException {
    }

    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(super.extraProperties());
        p.putAll(Map.of("hub.dev", "false", "hub.url", hub.url().toString(), "hub.heartbeat-interval", "300ms"));
        return p;
    }

    @Override
    protected boolean enrolledAtStart() {
        return false;
    }

    @AfterAll
    void stopHub() {
        hub.close();
    }

    @Test
    void theUiLeadsToSetupBeforeEnrollmentAndWarnsWhenTheHubIsUnreachableAfterIt() throws Exception {
        open("/", "Organizations");
        assertThat(text("#setup-notice")).contains("not enrolled");
        // the view itself shows the API's refusal: every gated call answers 503 until enrollment
        assertThat(text("main [role=alert]")).contains("/setup");
        assertThat(accessibilityProblems("setup-notice")).isEmpty();

        browser.findElement(By.cssSelector("#setup-notice a")).sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.id("setupCode")));
        assertThat(browser.getCurrentUrl()).isEqualTo(base() + "/setup");
        screenshot("setup-screen");

        // a wrong code, typed in the real browser: refused on the page after the one-second delay
        long before = System.nanoTime();
        browser.findElement(By.id("setupCode")).sendKeys("wrong-wrong-wrong-wrong", Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "not right"));
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - before)).isGreaterThanOrEqualTo(
                java.time.Duration.ofMillis(950));
        screenshot("setup-wrong-code");
        // the right one: the hand-off to the hub and back, in the browser
        String code = Files.readString(dataDir.resolve("secrets/stockade-hub-setup/setupCode")).trim();
        browser.findElement(By.id("setupCode")).sendKeys(code, Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.tagName("body"), "enrolled as fleet"));
        Await.until("the installation to be enrolled", () -> http.get("/v1/installation", null).body()
                .path("enrolled").asBoolean());
        Await.until("the gate to open", () -> http.get("/v1/auth/me", ownerToken()).status() == 200);
        open("/", "Organizations");
        waitFor("#create-org");
        assertThat(browser.findElements(By.id("setup-notice"))).isEmpty();
        assertThat(browser.findElements(By.id("heartbeat-warning"))).isEmpty();

        hub.close();
        Await.until("the heartbeat to miss the hub", () -> "unavailable".equals(
                http.get("/v1/installation", null).text("connection")));
        open("/", "Organizations");
        assertThat(text("#heartbeat-warning")).contains("not reachable");
        assertThat(accessibilityProblems("heartbeat-warning")).isEmpty();
    }
}
