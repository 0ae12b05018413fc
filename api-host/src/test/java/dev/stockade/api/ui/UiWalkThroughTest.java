package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The walk-through: a person signs in (the base class), creates an organization and a project, halts the
 * organization and lifts the halt, and finds each of those actions in the audit view. Every step goes through the
 * admin UI, which goes through the REST API; the audit trail is the proof of what happened.
 */
@MicronautTest(transactional = false)
class UiWalkThroughTest extends TenancyBrowserTest {
    @Test
    void aPersonWalksThroughTheAdminUi() {
        String orgId = createOrgInUi("Walk-through");
        String projectId = createProject(orgId, "walk");
        // Steps of other areas (a policy written and bound, a sandbox provisioned) go here, in the project just made;
        // add their audit kinds to the checks at the end.
        haltAndLift(orgId);

        assertThat(auditActions(orgId, "organization")).contains("create");
        assertThat(auditActions(orgId, "project")).contains("create");
        assertThat(auditActions(orgId, "halt")).containsExactly("lift", "halt");
        assertThat(projectId).matches("[0-9a-f-]{36}");
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
