package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Requires;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * A project's sandboxes in a real browser against the local provisioner: a sandbox authored as YAML by keyboard
 * alone (its problems shown first), seen running, its timers, ports and revisions, a shell in its terminal over the
 * exec socket, and its lifecycle buttons.
 */
@MicronautTest(transactional = false)
class SandboxesViewTest extends SandboxesBrowserTest {
    private static final String YAML = "name: web\ncpu: 250m\nmemory: 128Mi\n"
            + "ports: [{port: 8080, visibility: private}]\nautoStop: 30m\nautoDelete: 2d\nautoStart: true\n";

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES) // provisions three times (create, promote, rollback)
    void aPersonRunsASandboxFromYamlUsesItsTerminalAndStopsIt() {
        Requires.bubblewrap();
        open("/", "Organizations");
        String project = orgAndProject("sbx-ui", "agents");
        String list = "/projects/" + project + "/sandboxes";
        open(list, "Sandboxes of agents");
        assertThat(browser.findElement(By.id("sandbox-list")).getText()).contains("No sandbox");
        assertThat(accessibilityProblems("sandboxes-empty")).isEmpty();

        // a name the API refuses: its problem points at the field, with the line it is on
        typeYamlAndSubmitByKeyboard("name: Not_Valid\ncpu: 250m\nmemory: 128Mi\n");
        String refusal = waitFor("#create-sandbox [role=alert]").getText();
        assertThat(refusal).contains("/name").contains("line 1");
        assertThat(accessibilityProblems("sandboxes-refused")).isEmpty();

        typeYamlAndSubmitByKeyboard(YAML);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/projects/" + project + "/sandboxes/[0-9a-f-]{36}$"));
        waitForHeading("Sandbox web");
        provisioning().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#sandbox-state .tag"),
                "running"));
        assertThat(text("#sandbox-timers")).isEqualTo("stop after 30m idle, delete after 2d stopped, auto-start");
        assertThat(text("#active-revision")).isEqualTo("1");
        waitFor("#ports table");
        assertThat(text("#ports table")).contains("8080").contains("private").contains("not ready");
        assertThat(text("#revisions table")).contains("250m CPU, 128Mi, ports 8080/private");
        assertThat(text("#effective-policy")).contains("No domain: the sandbox can reach nothing.");
        assertThat(accessibilityProblems("sandbox-running")).isEmpty();
        // the page offers Start in every state; the API refuses it for a running sandbox and the page says so
        browser.findElement(By.cssSelector("[data-action=start]")).click();
        assertThat(waitFor("#sandbox-status [role=alert]").getText()).containsIgnoringCase("conflict");

        terminalRunsACommand();
        timersAndRevisions();

        browser.findElement(By.cssSelector("[data-action=stop]")).click();
        provisioning().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#sandbox-state .tag"),
                "stopped"));
        assertThat(accessibilityProblems("sandbox-stopped")).isEmpty();
        open(list, "Sandboxes of agents");
        assertThat(text("#sandbox-list table")).contains("web").contains("stopped");

        // delete asks twice: the first button only reveals the one that deletes
        browser.findElement(By.linkText("web")).click();
        waitForHeading("Sandbox web");
        browser.findElement(By.cssSelector("[data-action=delete]")).click();
        click("[data-action=confirm-delete]");
        waitForHeading("Sandboxes of agents");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("sandbox-list"), "No sandbox"));
    }

    /** Opens the terminal, types a command whose answer only the shell can compute, and reads it on the screen. */
    private void terminalRunsACommand() {
        // the strict CSP stays: any style or script xterm.js would inject and the policy refused is recorded here
        ((JavascriptExecutor) browser).executeScript("window.cspViolations = [];"
                + "document.addEventListener('securitypolicyviolation',"
                + " e => window.cspViolations.push(e.violatedDirective + ' ' + e.blockedURI));");
        browser.findElement(By.id("open-terminal")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("terminal-status"), "connected"));
        WebElement input = browser.findElement(By.cssSelector("#terminal-host .xterm-helper-textarea"));
        input.sendKeys("echo hello-$((6*7))", Keys.ENTER);
        wait.until(d -> rows().contains("hello-42"));
        assertThat(rows()).contains("echo hello-$((6*7))");
        assertThat(accessibilityProblems("sandbox-terminal")).isEmpty();
        // Shift+Escape leaves the terminal for the page, so keyboard users are never trapped in it
        input.sendKeys(Keys.chord(Keys.SHIFT, Keys.ESCAPE));
        assertThat(browser.switchTo().activeElement().getAttribute("id")).isEqualTo("close-terminal");
        browser.switchTo().activeElement().sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("#terminal-host .xterm")));
        @SuppressWarnings("unchecked")
        List<Object> violations = (List<Object>) ((JavascriptExecutor) browser).executeScript(
                "return window.cspViolations;");
        assertThat(violations).isEmpty();
    }

    /** Timers change in place; a configuration change is a new revision; promote and rollback move the active one. */
    private void timersAndRevisions() {
        WebElement autoStop = browser.findElement(By.cssSelector("#sandbox-timers-form [name=autoStop]"));
        autoStop.clear();
        autoStop.sendKeys("45m");
        // an emptied duration turns its timer off
        browser.findElement(By.cssSelector("#sandbox-timers-form [name=autoDelete]")).clear();
        autoStop.sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.textToBe(By.id("sandbox-timers"), "stop after 45m idle, auto-start"));
        assertThat(text("#active-revision")).isEqualTo("1");

        WebElement patch = browser.findElement(By.cssSelector("#sandbox-config-form textarea"));
        patch.clear();
        patch.sendKeys("cpu: 500m\n");
        browser.findElement(By.cssSelector("#sandbox-config-form button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBe(By.id("active-revision"), "2"));
        waitFor("#revisions button[data-revision='1']");
        assertThat(text("#revisions table")).contains("500m CPU").contains("250m CPU");

        click("#revisions button[data-revision='1']");
        wait.until(ExpectedConditions.textToBe(By.id("active-revision"), "1"));
        provisioning().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#sandbox-state .tag"),
                "running"));
        click("#rollback");
        wait.until(ExpectedConditions.textToBe(By.id("active-revision"), "2"));
        assertThat(accessibilityProblems("sandbox-revisions")).isEmpty();
        provisioning().until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#sandbox-state .tag"),
                "running"));
    }

    /** Replaces the YAML, then moves to the submit button with Tab and presses Enter: no mouse. */
    private void typeYamlAndSubmitByKeyboard(String yaml) {
        WebElement area = browser.findElement(By.cssSelector("#create-sandbox textarea"));
        area.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        area.sendKeys(yaml);
        area.sendKeys(Keys.TAB);
        WebElement focused = browser.switchTo().activeElement();
        assertThat(focused.getText()).isEqualTo("Create sandbox");
        focused.sendKeys(Keys.ENTER);
    }

    private String rows() {
        return browser.findElement(By.cssSelector("#terminal-host .xterm-accessibility-tree"))
                .getDomProperty("textContent");
    }

    private String text(String css) {
        return browser.findElement(By.cssSelector(css)).getText();
    }
}
