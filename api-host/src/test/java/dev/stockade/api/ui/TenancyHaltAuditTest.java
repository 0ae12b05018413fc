package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The emergency halt (a typed confirmation, the banner on every page of the organization, lifting by keyboard) and the
 * audit trail (filters, the next page by cursor, live updates, readable details), in a real browser.
 */
@MicronautTest(transactional = false)
class TenancyHaltAuditTest extends TenancyBrowserTest {
    @Test
    void aHaltIsConfirmedByTheNameShownOnEveryPageAndLiftedByKeyboard() {
        String orgId = createOrgInUi("Halt Co");
        String projectId = createProject(ownerToken(), orgId, "halt-project");
        open("/orgs/" + orgId + "/halt", "Emergency halt");
        assertThat(text("#halt-state")).isEqualTo("not halted");
        assertThat(browser.findElements(By.id("halt-banner"))).isEmpty();
        assertThat(accessibilityProblems("halt-not-halted")).isEmpty();

        tabTo("#halt-form input[name=confirm]");
        type("Halt Corp", Keys.ENTER);
        assertThat(text("#halt-status [role=alert]")).contains("Not confirmed");
        assertThat(halted(orgId)).isFalse();

        // the focus went back to the field with the mistake selected: typing again replaces it
        assertThat(browser.switchTo().activeElement().getAttribute("name")).isEqualTo("confirm");
        type("Halt Co", Keys.ENTER);
        assertThat(text("#halt-banner")).contains("This organization is halted");
        wait.until(ExpectedConditions.textToBe(By.id("halt-state"), "halted"));
        assertThat(halted(orgId)).isTrue();
        assertThat(accessibilityProblems("halt-halted")).isEmpty();
        // the banner is on every page of the organization, a project's pages included
        for (String page : List.of("/orgs/" + orgId, "/orgs/" + orgId + "/members", "/projects/" + projectId)) {
            browser.get(base() + "/ui" + page);
            assertThat(text("#halt-banner")).as(page).contains("halted");
        }
        open("/orgs/" + orgId, "Halt Co");
        assertThat(text("#org-state")).isEqualTo("halted");

        open("/orgs/" + orgId + "/halt", "Emergency halt");
        tabTo("#lift-form button[type=submit]");
        type(Keys.ENTER);
        wait.until(ExpectedConditions.textToBe(By.id("halt-state"), "not halted"));
        wait.until(ExpectedConditions.invisibilityOfElementLocated(By.id("halt-banner")));
        assertThat(halted(orgId)).isFalse();
    }

    @Test
    void theAuditTrailFiltersPagesUpdatesLiveAndShowsDetails() {
        String orgId = createOrgInUi("Audit Co");
        assertThat(http.post("/v1/orgs/" + orgId + "/halt", ownerToken(), Map.of()).status()).isEqualTo(200);
        assertThat(http.delete("/v1/orgs/" + orgId + "/halt", ownerToken()).status()).isEqualTo(200);
        open("/orgs/" + orgId + "/audit", "Audit trail");
        assertThat(rows("#audit-table")).anySatisfy(r -> assertThat(r.subList(1, 3)).containsExactly("halt", "lift"))
                .anySatisfy(r -> assertThat(r.subList(1, 3)).containsExactly("halt", "halt"));
        assertThat(accessibilityProblems("audit")).isEmpty();

        // details of an entry open by keyboard and read as text
        tabTo("#audit-rows tr:first-child summary");
        type(Keys.ENTER);
        assertThat(text("#audit-rows tr:first-child pre")).contains("\"details\"");

        // a filter the API offers, chosen in the form, keeps to what the API answers for it
        new Select(browser.findElement(By.cssSelector("#audit-filters select[name=kind]"))).selectByValue("halt");
        var unfiltered = browser.findElement(By.id("audit-table"));
        browser.findElement(By.cssSelector("#audit-filters button[type=submit]")).click();
        wait.until(ExpectedConditions.urlContains("kind=halt"));
        wait.until(ExpectedConditions.stalenessOf(unfiltered));
        wait.until(d -> rows("#audit-table").size() == 2);
        assertThat(rows("#audit-table")).extracting(r -> r.get(2)).containsExactly("lift", "halt");
        assertThat(field(http.get("/v1/orgs/" + orgId + "/audit-trail?kind=halt", ownerToken()), "action"))
                .containsExactly("lift", "halt");
        assertThat(accessibilityProblems("audit-filtered")).isEmpty();

        // one entry a page: the next page by cursor brings the older one, then there is none
        open("/orgs/" + orgId + "/audit?kind=halt&limit=1", "Audit trail");
        assertThat(rows("#audit-table")).extracting(r -> r.get(2)).containsExactly("lift");
        click("#audit-next");
        wait.until(d -> rows("#audit-table").size() == 2);
        assertThat(rows("#audit-table")).extracting(r -> r.get(2)).containsExactly("lift", "halt");
        assertThat(text("#audit-more")).contains("No older entries.");

        // reads left out: no row is a read, as the API answers
        open("/orgs/" + orgId + "/audit?excludeReads=true&limit=500", "Audit trail");
        assertThat(rows("#audit-table")).noneSatisfy(r -> assertThat(r.get(2)).endsWith("(read)"));
        assertThat(browser.findElement(By.cssSelector("#audit-filters input[name=excludeReads]")).isSelected()).isTrue();

        // live: an entry recorded after the page was drawn appears without reloading
        open("/orgs/" + orgId + "/audit", "Audit trail");
        tabTo("#audit-live");
        type(Keys.SPACE);
        // the organization had no project before, so a project `create` row can only be this one
        assertThat(rows("#audit-table")).noneSatisfy(r -> assertThat(r.get(1)).isEqualTo("project"));
        createProject(ownerToken(), orgId, "arrived-live");
        wait.until(d -> rows("#audit-table").stream().anyMatch(r -> r.subList(1, 3).equals(List.of("project", "create"))));
        assertThat(text("#audit-status")).containsPattern("\\d+ new entr");
    }

    private boolean halted(String orgId) {
        return http.get("/v1/orgs/" + orgId + "/halt", ownerToken()).body().path("halted").asBoolean();
    }
}
