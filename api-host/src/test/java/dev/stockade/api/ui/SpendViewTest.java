package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.spend.UsageLedger;
import dev.stockade.policy.model.Provider;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The spend view against calls written to the real usage ledger: the charts carry exactly the amounts put in (per
 * project per day, per sandbox), and a project limit set by keyboard alone shows its status and burn-down.
 */
@MicronautTest(transactional = false)
class SpendViewTest extends SandboxesBrowserTest {
    @Inject
    UsageLedger ledger;

    private record Place(String org, String project, String sandbox) {
    }

    @Test
    void chartsShowTheLedgerAndALimitIsSetByKeyboard() {
        open("/", "Organizations");
        String org = personApi("POST", "/orgs", Map.of("name", "spendco")).path("id").asText();
        Place alpha = place(org, "alpha", "a1");
        Place beta = place(org, "beta", "b1");
        Instant now = Instant.now();
        Instant threeDaysAgo = now.minus(Duration.ofDays(3));
        spend(alpha, 1_250_000, now);
        spend(alpha, 500_000, now);
        spend(beta, 2_000_000, now);
        spend(beta, 300_000, threeDaysAgo);
        String today = LocalDate.ofInstant(now, ZoneOffset.UTC).toString();
        String earlier = LocalDate.ofInstant(threeDaysAgo, ZoneOffset.UTC).toString();

        open("/orgs/" + org + "/spend", "Usage and spending limits of spendco");
        waitFor("#spend-by-project");
        assertThat(point("alpha", today)).isEqualTo("1.750000");
        assertThat(point("beta", today)).isEqualTo("2.000000");
        assertThat(point("beta", earlier)).isEqualTo("0.300000");
        assertThat(point("alpha", earlier)).isEqualTo("0.000000");
        assertThat(browser.findElements(By.cssSelector("#spend-by-project g[data-series=alpha] circle"))).hasSize(14);
        List<WebElement> bars = browser.findElements(By.cssSelector("#top-sandboxes g.bar"));
        assertThat(bars).extracting(b -> b.getAttribute("data-label")).containsExactly("b1", "a1");
        assertThat(bars).extracting(b -> b.getAttribute("data-value")).containsExactly("2.300000", "1.750000");
        assertThat(text("main")).contains("No spending limit");
        assertThat(accessibilityProblems("spend-charts")).isEmpty();

        // an amount the API refuses is answered with its problem, in the page
        WebElement amount = browser.findElement(By.cssSelector("#limit-form [name=amountUsd]"));
        amount.sendKeys("lots", Keys.ENTER);
        assertThat(waitFor("#limits-status [role=alert]").getText()).contains("amountUsd");

        // keyboard only: the scope by arrow key, the project by typing its name, Tab to the amount, Enter to save
        WebElement scope = browser.findElement(By.cssSelector("#limit-form [name=scope]"));
        scope.sendKeys(Keys.ARROW_DOWN);
        assertThat(scope.getDomProperty("value")).isEqualTo("project");
        scope.sendKeys(Keys.TAB);
        browser.switchTo().activeElement().sendKeys("alpha");
        browser.switchTo().activeElement().sendKeys(Keys.TAB);
        WebElement focused = browser.switchTo().activeElement();
        assertThat(focused.getAttribute("name")).isEqualTo("amountUsd");
        focused.sendKeys(Keys.chord(Keys.CONTROL, "a"), "5", Keys.ENTER);
        wait.until(ExpectedConditions.presenceOfElementLocated(By.cssSelector("#burn-down-0")));
        assertThat(text("#limits-h + table")).contains("Project alpha").contains("5.000000").contains("1.750000")
                .contains("3.250000").contains("within limit");
        assertThat(browser.findElement(By.cssSelector("#burn-down-0 .guide")).getAttribute("data-value"))
                .isEqualTo("5.000000");
        List<WebElement> left = browser.findElements(By.cssSelector("#burn-down-0 circle"));
        assertThat(left.get(left.size() - 1).getAttribute("data-value")).isEqualTo("3.250000");
        assertThat(accessibilityProblems("spend-limit")).isEmpty();
    }

    /** A project with one sandbox, stopped at once (the spend view needs its name, not a running sandbox). */
    private Place place(String org, String project, String sandbox) {
        String projectId = personApi("POST", "/orgs/" + org + "/projects", Map.of("name", project)).path("id").asText();
        String path = "/projects/" + projectId + "/sandboxes";
        String sandboxId = personApi("POST", path, Map.of("name", sandbox, "cpu", "250m", "memory", "128Mi"))
                .path("id").asText();
        personApi("POST", path + "/" + sandboxId + "/stop", null);
        return new Place(org, projectId, sandboxId);
    }

    /** One metered, priced model call, written by the ledger's own API as the inference proxy writes it. */
    private void spend(Place p, long micros, Instant at) {
        ledger.record(new UsageLedger.Usage(UUID.fromString(p.org()), UUID.fromString(p.project()),
                UUID.fromString(p.sandbox()), Provider.BEDROCK, "claude-sonnet", 1000, 200, micros, true, at));
    }

    private String point(String series, String day) {
        return browser.findElement(By.cssSelector("#spend-by-project g[data-series='" + series + "'] circle[data-label='"
                + day + "']")).getAttribute("data-value");
    }

    private String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }
}
