package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;

/**
 * The policy editor: a person types a policy with a mistake, sees the core's problem with the CLI's caret at the right
 * line and column, moves the cursor there, fixes it and saves, all by keyboard; a policy with GraphQL argument
 * conditions (which the UI has no form for) keeps them unchanged through a save from the editor.
 */
@MicronautTest(transactional = false)
class PolicyEditorViewTest extends UiBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private String orgId;

    @BeforeAll
    void anOrganization() {
        open("/", "Organizations");
        browser.findElement(By.cssSelector("#create-org input[name=name]")).sendKeys("policy-editing", Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/orgs/[0-9a-f-]{36}$"));
        orgId = browser.getCurrentUrl().replaceAll(".*/ui/orgs/", "");
    }

    @Test
    void aMistakeIsShownWithTheCaretThenFixedAndSavedByKeyboard() {
        open("/orgs/" + orgId + "/policies", "Organization policies");
        assertThat(accessibilityProblems("policies-empty")).isEmpty();
        open("/orgs/" + orgId + "/policies/new", "New policy");
        WebElement editor = waitFor("#policy-yaml");
        // the template has no name yet: the core's first answer says so
        wait.until(ExpectedConditions.textToBe(By.id("check-summary"), "1 error."));
        editor.sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.DELETE);
        editor.sendKeys("name: web\nallowedDomains:\n  - pattern: github.com\n    verdict: alow\n");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("problems"), "verdict: alow"));
        assertThat(waitFor("#problems button.goto").getText()).isEqualTo("Line 4, column 5");
        String[] block = browser.findElement(By.cssSelector("#problems pre.caret")).getText().split("\n");
        assertThat(block[0]).startsWith("policy:4:5: error[");
        assertThat(block[1]).isEqualTo(" 4 |     verdict: alow");
        // the caret stands under the 5th character of the line: `v` of `verdict`
        assertThat(block[2].indexOf('^') - block[2].indexOf('|')).isEqualTo(block[1].indexOf('v') - block[1].indexOf('|'));
        assertThat(accessibilityProblems("policy-with-mistake")).isEmpty();

        // keyboard only: from the editor, Tab reaches Save; saving anyway is refused by the API, whose field error is
        // drawn the same way (line, caret); then Tab reaches the problem's place, and Enter there moves the cursor
        editor.sendKeys(Keys.TAB);
        assertThat(active().getAttribute("id")).isEqualTo("save-policy");
        active().sendKeys(Keys.ENTER);
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("check-summary"), "refused the save"));
        String[] refused = browser.findElement(By.cssSelector("#problems pre.caret")).getText().split("\n");
        assertThat(refused[1]).isEqualTo(block[1]);
        assertThat(refused[2]).isEqualTo(block[2]);
        assertThat(browser.getCurrentUrl()).endsWith("/policies/new");
        active().sendKeys(Keys.TAB);
        assertThat(active().getText()).isEqualTo("Line 4, column 5");
        active().sendKeys(Keys.ENTER);
        assertThat(active().getAttribute("id")).isEqualTo("policy-yaml");
        // "name: web\n" (10) + "allowedDomains:\n" (16) + "  - pattern: github.com\n" (24) + 4 characters
        assertThat(js("return document.getElementById('policy-yaml').selectionStart")).isEqualTo(54L);
        active().sendKeys(Keys.END, Keys.BACK_SPACE, Keys.BACK_SPACE, Keys.BACK_SPACE, Keys.BACK_SPACE, "allow");
        wait.until(ExpectedConditions.textToBe(By.id("check-summary"), "Valid."));
        assertThat(browser.findElement(By.cssSelector("#describe tbody tr")).getText())
                .isEqualTo("github.com allow */upstream callers=any rules=any");
        active().sendKeys(Keys.TAB, Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/orgs/" + orgId + "/policies/[0-9a-f-]{36}$"));
        waitForHeading("Policy web");
        assertThat(accessibilityProblems("policy-saved")).isEmpty();
        open("/orgs/" + orgId + "/policies", "Organization policies");
        assertThat(browser.findElement(By.cssSelector("main table")).getText()).contains("web");
        assertThat(accessibilityProblems("policies-listed")).isEmpty();
    }

    @Test
    void graphqlArgumentConditionsSurviveASaveFromTheEditor() throws Exception {
        String project = call("POST", "/orgs/" + orgId + "/projects", "{\"name\":\"gql\"}").path("id").asText();
        String yaml = """
                name: github-graphql
                description: before
                allowedDomains:
                  - pattern: api.github.com
                    verdict: allow
                    rules:
                      - path: /graphql
                        graphql:
                          operationType: query
                          operationName: Repo*
                          fields: [repository]
                          arguments:
                            - field: repository
                              pointer: /owner
                              glob: acme
                            - field: repository
                              pointer: /a~1b~0c
                              glob: "123"
                            - field: repository
                              pointer: /name
                              glob: "yes"
                """;
        JsonNode created = call("POST", "/projects/" + project + "/policies", JSON.writeValueAsString(yaml));
        String id = created.path("id").asText();
        JsonNode before = created.path("policy").path("allowedDomains").get(0).path("rules");
        assertThat(before.get(0).path("graphql").path("arguments")).hasSize(3);

        open("/projects/" + project + "/policies/" + id, "Policy github-graphql");
        wait.until(ExpectedConditions.textToBe(By.id("check-summary"), "Valid."));
        assertThat(browser.findElement(By.cssSelector("#describe tbody tr")).getText()).isEqualTo(
                "api.github.com allow */upstream callers=any rules=graphql:query /graphql name=Repo* fields=repository");
        assertThat(accessibilityProblems("policy-graphql")).isEmpty();
        WebElement editor = browser.findElement(By.id("policy-yaml"));
        editor.sendKeys(Keys.chord(Keys.CONTROL, Keys.END), "env:\n  MODE: ui\n");
        wait.until(ExpectedConditions.textToBe(By.id("check-summary"), "Valid."));
        browser.findElement(By.id("save-policy")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.id("save-status"), "Saved github-graphql."));

        JsonNode after = call("GET", "/projects/" + project + "/policies/" + id, null).path("policy");
        assertThat(after.path("env").path("MODE").asText()).isEqualTo("ui");
        assertThat(JSON.writeValueAsString(after.path("allowedDomains").get(0).path("rules")))
                .isEqualTo(JSON.writeValueAsString(before));
    }

    private WebElement active() {
        return browser.switchTo().activeElement();
    }

    private Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }
}
