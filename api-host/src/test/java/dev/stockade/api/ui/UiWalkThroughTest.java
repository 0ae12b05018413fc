package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import dev.stockade.api.support.Requires;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The walk-through: a person signs in on the provider's login page (the base class), creates an organization
 * and a project, writes a policy with a mistake and sees the core's caret, fixes and saves it, creates a sandbox from
 * YAML, opens its terminal and runs a command, halts the organization and lifts the halt, and finds every one of those
 * actions in the audit view. Every step goes through the admin UI, which goes through the REST API; the audit trail
 * is the proof of what happened.
 */
@MicronautTest(transactional = false)
class UiWalkThroughTest extends TenancyBrowserTest {
    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(super.extraProperties());
        p.put("sandbox.k8s.cpu", "2"); // the ceiling a sandbox's cpu and memory are checked against
        p.put("sandbox.k8s.memory", "4Gi");
        return p;
    }

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // provisions a real sandbox
    void aPersonWalksThroughTheAdminUi() {
        Requires.bubblewrap();
        String orgId = createOrgInUi("Walk-through");
        String projectId = createProject(orgId, "walk");
        writePolicyWithAMistakeThenFixIt(projectId);
        runACommandInANewSandbox(projectId);
        haltAndLift(orgId);

        assertThat(auditActions(orgId, "organization")).contains("create");
        assertThat(auditActions(orgId, "project")).contains("create");
        assertThat(auditActions(orgId, "policy")).containsExactly("create"); // the refused save changed nothing
        assertThat(auditActions(orgId, "sandbox")).contains("exec", "create");
        assertThat(auditActions(orgId, "halt")).containsExactly("lift", "halt");
    }

    private void writePolicyWithAMistakeThenFixIt(String projectId) {
        open("/projects/" + projectId + "/policies/new", "New policy");
        WebElement editor = waitFor("#policy-yaml");
        editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        editor.sendKeys("name: web\nallowedDomains:\n  - pattern: github.com\n    verdict: alow\n");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("problems"), "verdict: alow"));
        String[] caret = browser.findElement(By.cssSelector("#problems pre.caret")).getText().split("\n");
        assertThat(caret[0]).startsWith("policy:4:5: error[");
        assertThat(caret[2].indexOf('^') - caret[2].indexOf('|')).isEqualTo(caret[1].indexOf('v') - caret[1].indexOf('|'));
        screenshot("walk-policy-mistake");
        browser.findElement(By.id("save-policy")).click(); // the API refuses it too, and nothing is stored
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("check-summary"), "refused the save"));
        editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        editor.sendKeys("name: web\nallowedDomains:\n  - pattern: github.com\n    verdict: allow\n");
        wait.until(ExpectedConditions.textToBe(By.id("check-summary"), "Valid."));
        browser.findElement(By.id("save-policy")).click();
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/projects/" + projectId + "/policies/[0-9a-f-]{36}$"));
        waitForHeading("Policy web");
    }

    private void runACommandInANewSandbox(String projectId) {
        open("/projects/" + projectId + "/sandboxes", "Sandboxes of walk");
        WebElement yaml = waitFor("#create-sandbox textarea");
        yaml.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        yaml.sendKeys("name: shell\ncpu: 250m\nmemory: 128Mi\n");
        browser.findElement(By.cssSelector("#create-sandbox button[type=submit]")).click();
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/projects/" + projectId + "/sandboxes/[0-9a-f-]{36}$"));
        new WebDriverWait(browser, Duration.ofSeconds(180)).until(ExpectedConditions.textToBePresentInElementLocated(
                By.cssSelector("#sandbox-state .tag"), "running"));
        browser.findElement(By.id("open-terminal")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("terminal-status"), "connected"));
        browser.findElement(By.cssSelector("#terminal-host .xterm-helper-textarea"))
                .sendKeys("echo walk-$((6*7))", Keys.ENTER);
        wait.until(d -> browser.findElement(By.cssSelector("#terminal-host .xterm-accessibility-tree"))
                .getDomProperty("textContent").contains("walk-42"));
        screenshot("walk-terminal");
    }

    private String createProject(String orgId, String name) {
        open("/orgs/" + orgId + "/projects", "Projects");
        browser.findElement(By.cssSelector("#create-project input[name=name]")).sendKeys(name, Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/projects/[0-9a-f-]{36}$"));
        waitForHeading(name);
        return browser.getCurrentUrl().replaceAll(".*/ui/projects/", "");
    }

    private void haltAndLift(String orgId) {
        open("/orgs/" + orgId + "/halt", "Emergency halt");
        browser.findElement(By.cssSelector("#halt-form input[name=confirm]")).sendKeys("Walk-through", Keys.ENTER);
        waitFor("#halt-banner");
        wait.until(ExpectedConditions.textToBe(By.id("halt-state"), "halted"));
        waitFor("#lift-form button[type=submit]").sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.textToBe(By.id("halt-state"), "not halted"));
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("halt-banner")));
    }

    /** The actions of {@code kind} in the audit view, filtered through its form, newest first. */
    private List<String> auditActions(String orgId, String kind) {
        open("/orgs/" + orgId + "/audit", "Audit trail");
        new Select(waitFor("#audit-filters select[name=kind]")).selectByValue(kind);
        var unfiltered = browser.findElement(By.id("audit-table"));
        browser.findElement(By.cssSelector("#audit-filters button[type=submit]")).click();
        wait.until(ExpectedConditions.urlContains("kind=" + kind));
        wait.until(ExpectedConditions.stalenessOf(unfiltered));
        waitFor("#audit-table");
        assertThat(accessibilityProblems("audit-" + kind)).isEmpty();
        return rows("#audit-table").stream().map(r -> r.get(2)).toList();
    }
}
