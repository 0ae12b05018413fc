package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.support.Node;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;

/**
 * Policy bindings with the effective policy and drift they produce against the org ceiling, and a project's connectors
 * registered against a real upstream MCP server ({@code @modelcontextprotocol/server-everything}).
 */
@MicronautTest(transactional = false)
class PolicyBindingsAndConnectorsViewTest extends UiBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final int upstreamPort = Node.freePort();
    private Process upstream;
    private String orgId;
    private String projectId;

    /** The upstream MCP server runs on this machine's loopback, which connectors refuse unless told otherwise. */
    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(super.extraProperties());
        p.put("connectors.allow-loopback-unsafe", "true");
        return p;
    }

    @BeforeAll
    void anOrganizationWithAProject() throws Exception {
        open("/", "Organizations");
        browser.findElement(By.cssSelector("#create-org input[name=name]")).sendKeys("bindings", Keys.ENTER);
        wait.until(d -> d.getCurrentUrl().matches(".*/ui/orgs/[0-9a-f-]{36}$"));
        orgId = browser.getCurrentUrl().replaceAll(".*/ui/orgs/", "");
        projectId = call("POST", "/orgs/" + orgId + "/projects", "{\"name\":\"agents\"}").path("id").asText();
    }

    @AfterAll
    void stopUpstream() {
        if (upstream != null) {
            upstream.destroyForcibly();
        }
    }

    @Test
    void aBindingShowsItsEffectivePolicyAndTheDriftAgainstTheCeiling() throws Exception {
        call("POST", "/orgs/" + orgId + "/policies", yaml("""
                name: ceiling
                networkDefaultVerdict: deny
                allowedDomains:
                  - pattern: github.com
                    verdict: allow
                """));
        call("POST", "/projects/" + projectId + "/policies", yaml("""
                name: wants-more
                allowedDomains:
                  - pattern: github.com
                    verdict: allow
                  - pattern: example.com
                    verdict: allow
                """));
        open("/projects/" + projectId + "/policy-bindings", "Project policy bindings");
        assertThat(accessibilityProblems("bindings-empty")).isEmpty();
        new Select(browser.findElement(By.cssSelector("#create-binding select[name=policyId]")))
                .selectByVisibleText("wants-more");
        new Select(browser.findElement(By.cssSelector("#create-binding select[name=subject]")))
                .selectByVisibleText(NAME + " (person)");
        browser.findElement(By.cssSelector("#create-binding button[type=submit]")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("main table"), "wants-more"));

        // the person's own effective policy: what the ceiling lets through, and why example.com is not there
        WebElement effective = waitFor("#effective table");
        // example.com is outside the ceiling: the effective policy denies it (a deny row: no scheme, no transport)
        assertThat(effective.getText()).contains("github.com allow */upstream callers=any rules=any")
                .contains("example.com deny */- callers=any rules=any");
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("#effective .drift"),
                "example.com"));
        assertThat(browser.findElement(By.cssSelector("#effective .drift")).getText())
                .contains("wants-more (entry 2)").contains("outside-ceiling");
        assertThat(accessibilityProblems("bindings-effective")).isEmpty();

        open("/orgs/" + orgId + "/policy-bindings", "Organization policy bindings");
        WebElement drift = waitFor("#drift");
        assertThat(drift.getText()).contains("in project " + projectId).contains("example.com")
                .contains("outside-ceiling");
        assertThat(accessibilityProblems("bindings-drift")).isEmpty();

        open("/projects/" + projectId + "/policy-bindings", "Project policy bindings");
        browser.findElement(By.cssSelector("main table button.danger")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("main"), "No bindings yet."));
        assertThat(call("GET", "/projects/" + projectId + "/policy-bindings", null).path("items")).isEmpty();
    }

    @Test
    void anMcpServerIsRegisteredItsToolsListedAndAChangedToolListPromoted() throws Exception {
        upstream = Node.server(upstreamPort, "node_modules/@modelcontextprotocol/server-everything/dist/index.js",
                "streamableHttp");
        open("/projects/" + projectId + "/connectors", "Connectors");
        assertThat(accessibilityProblems("connectors-empty")).isEmpty();
        browser.findElement(By.cssSelector("#register-mcp input[name=name]")).sendKeys("everything");
        browser.findElement(By.cssSelector("#register-mcp input[name=url]"))
                .sendKeys("http://127.0.0.1:" + upstreamPort + "/mcp");
        browser.findElement(By.id("preview-tools")).click();
        assertThat(waitFor("#mcp-status table").getText()).contains("echo");
        browser.findElement(By.cssSelector("#register-mcp button[type=submit]")).click();
        waitForHeading("Connector everything");
        WebElement tools = waitFor("main table");
        assertThat(tools.getText()).contains("echo");
        assertThat(accessibilityProblems("connector-detail")).isEmpty();

        // hiding a tool goes through the API: the entry is hidden there too
        browser.findElement(By.cssSelector("input[aria-label='Show echo']")).click();
        String server = browser.getCurrentUrl().replaceAll(".*/connectors/", "");
        wait.until(d -> {
            try {
                for (JsonNode e : call("GET", "/mcp-servers/" + server + "/entries", null).path("items")) {
                    if (e.path("name").asText().equals("echo")) {
                        return !e.path("visible").asBoolean();
                    }
                }
                return false;
            } catch (Exception ex) {
                throw new IllegalStateException(ex);
            }
        });
        // the upstream changes its tools (`echo` described anew, `add` added, the rest gone): discovering again makes a
        // pending list whose diff the page shows, and promoting it makes it the active one
        upstream.destroyForcibly();
        upstream.waitFor();
        upstream = Node.server(upstreamPort, "second-upstream.mjs");
        browser.findElement(By.id("sync")).click();
        WebElement pending = waitFor("#pending table");
        assertThat(pending.getText()).contains("added add").contains("removed get-env").contains("changed echo");
        assertThat(accessibilityProblems("connector-pending")).isEmpty();
        browser.findElement(By.cssSelector("#pending button.primary")).click();
        wait.until(ExpectedConditions.textToBePresentInElementLocated(By.cssSelector("main"),
                "No pending list: the active tools are current."));
        assertThat(browser.findElement(By.cssSelector("main table")).getText()).contains("add")
                .doesNotContain("get-env");

        open("/projects/" + projectId + "/connectors", "Connectors");
        assertThat(browser.findElement(By.cssSelector("main table")).getText()).contains("everything")
                .contains("MCP server");
        assertThat(accessibilityProblems("connectors-listed")).isEmpty();
    }

    private static String yaml(String text) throws Exception {
        return JSON.writeValueAsString(text);
    }
}
