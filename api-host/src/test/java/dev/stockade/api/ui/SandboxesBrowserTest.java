package dev.stockade.api.ui;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The sandboxes area's browser tests: the platform with the sandbox ceiling the sandbox tests use, and the signed-in
 * person's own API calls (made in the page with the session and CSRF token, as the UI makes them) to set up what a
 * view shows.
 */
abstract class SandboxesBrowserTest extends UiBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    protected Map<String, String> extraProperties() {
        Map<String, String> p = new HashMap<>(super.extraProperties());
        p.put("sandbox.k8s.cpu", "2");
        p.put("sandbox.k8s.memory", "4Gi");
        return p;
    }

    /** A wait long enough for provisioning a sandbox on the local provisioner (it runs on worker threads). */
    protected WebDriverWait provisioning() {
        return new WebDriverWait(browser, Duration.ofSeconds(180));
    }

    /** Calls the API as the signed-in person, from the page; fails the test on anything but 2xx. */
    protected JsonNode personApi(String method, String path, Object body) {
        String json;
        try {
            json = body == null ? null : JSON.writeValueAsString(body);
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
        @SuppressWarnings("unchecked")
        List<Object> answer = (List<Object>) ((JavascriptExecutor) browser).executeAsyncScript(
                "const [method, path, body, done] = arguments;"
                        + "const csrf = document.querySelector('meta[name=\"stockade-csrf\"]').content;"
                        + "fetch('/v1' + path, {method, body, headers: {'X-Stockade-CSRF': csrf,"
                        + " 'Content-Type': 'application/json', Accept: 'application/json'}})"
                        + ".then(r => r.text().then(t => done([r.status, t]))).catch(e => done([0, String(e)]));",
                method, path, json);
        int status = ((Number) answer.get(0)).intValue();
        assertThat(status).as(method + " " + path + ": " + answer.get(1)).isBetween(200, 299);
        try {
            String text = (String) answer.get(1);
            return text.isEmpty() ? null : JSON.readTree(text);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** An organization and a project of it, created by the signed-in person; answers the project's id. */
    protected String orgAndProject(String org, String project) {
        String orgId = personApi("POST", "/orgs", Map.of("name", org)).path("id").asText();
        return personApi("POST", "/orgs/" + orgId + "/projects", Map.of("name", project)).path("id").asText();
    }
}
