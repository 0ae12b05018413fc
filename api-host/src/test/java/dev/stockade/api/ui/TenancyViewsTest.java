package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * The tenancy views in a real browser: an organization's overview and projects (by keyboard alone), its members and
 * invitations, a project's members, and tokens whose secret is shown once. What the UI did is checked through REST.
 */
@MicronautTest(transactional = false)
class TenancyViewsTest extends TenancyBrowserTest {
    @Test
    void anOrganizationLeadsToItsSectionsAndAProjectIsCreatedByKeyboardAlone() {
        String orgId = createOrgInUi("Tenancy A");
        assertThat(text("#org-state")).isEqualTo("running");
        assertThat(text("#org-sections")).contains("Projects", "Members", "API tokens", "Emergency halt", "Audit trail");
        assertThat(text("#nav")).contains("Overview", "Projects", "Members", "API tokens", "Emergency halt", "Audit trail");
        assertThat(accessibilityProblems("org-overview")).isEmpty();

        tabTo("#org-sections a[href$='/projects']");
        type(Keys.ENTER);
        waitForHeading("Projects");
        assertThat(text("main")).contains("No project yet.");
        assertThat(accessibilityProblems("projects-empty")).isEmpty();
        tabTo("#create-project input[name=name]");
        type("billing", Keys.TAB, "invoices and refunds", Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/projects/[0-9a-f-]{36}$"));
        waitForHeading("billing");
        assertThat(text("main")).contains("invoices and refunds", "Tenancy A");
        assertThat(text("#nav")).contains("Sandbox tokens");
        assertThat(accessibilityProblems("project-overview")).isEmpty();
        String projectId = browser.getCurrentUrl().replaceAll(".*/ui/projects/", "");

        var listed = http.get("/v1/orgs/" + orgId + "/projects", ownerToken());
        assertThat(field(listed, "id")).containsExactly(projectId);
        assertThat(field(listed, "description")).containsExactly("invoices and refunds");
        open("/orgs/" + orgId + "/projects", "Projects");
        assertThat(rows("main").get(0)).startsWith("billing", "invoices and refunds");
        assertThat(accessibilityProblems("projects-listed")).isEmpty();
        // a blank name passes the browser's `required` but not the API, whose problem is shown in the page
        tabTo("#create-project input[name=name]");
        type("   ", Keys.ENTER);
        assertThat(waitFor("#create-project [role=alert]").getText()).isNotBlank();
        assertThat(field(http.get("/v1/orgs/" + orgId + "/projects", ownerToken()), "id")).hasSize(1);
    }

    @Test
    void membersInvitationsAndProjectMembersAreManagedThroughTheApi() {
        String orgId = createOrgInUi("Tenancy B");
        open("/orgs/" + orgId + "/members", "Members");
        assertThat(rows("#org-members")).anySatisfy(r -> assertThat(r).contains(EMAIL));
        assertThat(new Select(waitFor("#org-members select")).getFirstSelectedOption().getText()).isEqualTo("admin");

        browser.findElement(By.cssSelector("#invite input[name=email]")).sendKeys("ada@example.com", Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("invitations"), "ada@example.com"));
        assertThat(field(http.get("/v1/orgs/" + orgId + "/invitations", ownerToken()), "email"))
                .containsExactly("ada@example.com");
        assertThat(accessibilityProblems("org-members")).isEmpty();
        browser.findElement(By.xpath("//button[.='Revoke invitation of ada@example.com']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("invitations"), "No invitation."));
        assertThat(field(http.get("/v1/orgs/" + orgId + "/invitations", ownerToken()), "email")).isEmpty();

        String projectId = createProject(ownerToken(), orgId, "tenancy-b");
        String tokenId = http.post("/v1/orgs/" + orgId + "/api-tokens", ownerToken(), Map.of("name", "deployer"))
                .text("id");
        open("/projects/" + projectId + "/members", "Members of tenancy-b");
        Select who = new Select(waitFor("#add-project-member select[name=principal]"));
        who.selectByValue("api-tokens/" + tokenId);
        new Select(browser.findElement(By.cssSelector("#add-project-member select[name=role]"))).selectByValue("ADMIN");
        browser.findElement(By.cssSelector("#add-project-member button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("project-members"), "deployer"));
        String members = "/v1/projects/" + projectId + "/members";
        assertThat(roleOf(members, tokenId)).isEqualTo("ADMIN");
        assertThat(accessibilityProblems("project-members")).isEmpty();

        new Select(browser.findElement(By.cssSelector("select[aria-label='Role of API token deployer']")))
                .selectByValue("MEMBER");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("project-members-status"),
                "API token deployer is now member."));
        assertThat(roleOf(members, tokenId)).isEqualTo("MEMBER");
        browser.findElement(By.xpath("//button[.='Remove API token deployer']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("project-members-status"),
                "API token deployer was removed."));
        assertThat(roleOf(members, tokenId)).isNull();
        assertThat(text("#project-members")).doesNotContain("deployer");
    }

    @Test
    void aTokenSecretIsShownOnceAndRevokingItEndsIt() {
        String orgId = createOrgInUi("Tenancy C");
        open("/orgs/" + orgId + "/api-tokens", "API tokens");
        browser.findElement(By.cssSelector("#create-api-token input[name=name]")).sendKeys("ci-runner", Keys.ENTER);
        WebElement secretField = waitFor("#new-token-secret");
        String secret = secretField.getAttribute("value");
        assertThat(browser.switchTo().activeElement()).as("the secret has the focus, ready to copy").isEqualTo(secretField);
        assertThat(text("#new-token")).contains("Shown once");
        // the secret shown is the real token: the API accepts it
        assertThat(http.get("/v1/orgs/" + orgId, secret).status()).isEqualTo(200);
        assertThat(rows("#api-tokens")).singleElement().satisfies(r -> {
            assertThat(r.get(0)).isEqualTo("ci-runner");
            assertThat(secret).startsWith(r.get(1).replace("…", ""));
            assertThat(r.get(4)).isEqualTo("active");
        });
        assertThat(accessibilityProblems("api-token-created")).isEmpty();

        open("/orgs/" + orgId + "/api-tokens", "API tokens");
        assertThat(browser.getPageSource()).doesNotContain(secret);
        browser.findElement(By.xpath("//button[.='Revoke ci-runner']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("api-tokens"), "revoked"));
        Await.until("the revoked token to be refused", () -> http.get("/v1/orgs/" + orgId, secret).status() == 401);

        String projectId = createProject(ownerToken(), orgId, "tenancy-c");
        open("/projects/" + projectId + "/sandbox-tokens", "Sandbox tokens of tenancy-c");
        browser.findElement(By.cssSelector("#create-sandbox-token input[name=name]")).sendKeys("agent-1", Keys.ENTER);
        String sandboxSecret = waitFor("#new-token-secret").getAttribute("value");
        var listed = http.get("/v1/projects/" + projectId + "/sandbox-tokens", ownerToken());
        assertThat(field(listed, "name")).containsExactly("agent-1");
        assertThat(sandboxSecret).startsWith(field(listed, "prefix").get(0).replace("…", ""));
        assertThat(accessibilityProblems("sandbox-token-created")).isEmpty();
        browser.findElement(By.xpath("//button[.='Revoke agent-1']")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("sandbox-tokens"), "revoked"));
        assertThat(field(http.get("/v1/projects/" + projectId + "/sandbox-tokens", ownerToken()), "revokedAt").get(0))
                .isNotBlank().isNotEqualTo("null");
    }

    /** The role of a project member by its principal id, as the API lists it; null when it is not a member. */
    private String roleOf(String membersPath, String principalId) {
        for (var item : http.get(membersPath, ownerToken()).body().path("items")) {
            if (item.path("principalId").asText().equals(principalId)) {
                return item.path("role").asText();
            }
        }
        return null;
    }
}
