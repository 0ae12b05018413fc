package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;

/** The landing view: an owner-email person creates an organization by keyboard alone, and a refusal is shown. */
@MicronautTest(transactional = false)
class OrganizationsViewTest extends UiBrowserTest {
    @Test
    void aPersonCreatesAnOrganizationWithTheKeyboard() {
        open("/", "Organizations");
        assertThat(accessibilityProblems("organizations-empty")).isEmpty();
        var name = browser.findElement(By.cssSelector("#create-org input[name=name]"));
        name.sendKeys("acme", Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/orgs/[0-9a-f-]{36}$"));
        open("/", "Organizations");
        assertThat(browser.findElement(By.cssSelector("main table")).getText()).contains("acme");
        // a name the API refuses (blank after trimming) is answered with the API's own problem, in the page
        var again = browser.findElement(By.cssSelector("#create-org input[name=name]"));
        again.sendKeys("   ", Keys.ENTER);
        assertThat(waitFor("#create-org [role=alert]").getText()).isNotBlank();
        assertThat(accessibilityProblems("organizations-listed")).isEmpty();
    }
}
