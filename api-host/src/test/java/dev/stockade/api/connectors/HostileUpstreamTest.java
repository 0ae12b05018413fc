package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.support.Http;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Upstreams that misbehave produce clear tool errors within the call bound (3 s here), never a hung call or a crash;
 * a server that never answers {@code initialize} is registered with its error.
 */
@MicronautTest(transactional = false)
class HostileUpstreamTest extends HostileUpstreamFixture {

    @Override
    protected Map<String, String> extraProperties() {
        return Map.of("connectors.allow-loopback-unsafe", "true", "connectors.call-timeout", "3s",
                "connectors.max-response-bytes", "1048576");
    }

    @Test
    void everyMisbehaviourIsAClearToolErrorWithinTheBound() {
        World w = world();
        Map<String, String> expected = Map.of(
                "silent", "did not answer within 3 s",
                "huge", "over 1048576 bytes",
                "garbage", "not valid JSON",
                "notrpc", "not a JSON-RPC response",
                "html", "content type `text/html`",
                "redirect", "redirected (302)");
        for (String mode : MODES) {
            long start = System.nanoTime();
            JsonNode r = call(w, mode + "__t");
            long millis = (System.nanoTime() - start) / 1_000_000;
            assertThat(r.path("isError").asBoolean()).as(mode + ": " + r).isTrue();
            assertThat(r.path("structuredContent").path("code").asText()).as(mode).isEqualTo("upstream_failed");
            assertThat(r.path("content").get(0).path("text").asText()).as(mode).contains(expected.get(mode));
            // the 3 s bound with room for a loaded machine, still well short of the silent upstream's 30 s
            assertThat(millis).as(mode + " took %d ms", millis).isLessThan(15_000);
        }
        JsonNode trail = http.get("/v1/orgs/" + w.org() + "/audit-trail?kind=tool-call&outcome=error", ownerToken())
                .body().path("items");
        assertThat(trail).hasSize(MODES.size());
    }

    @Test
    void anUpstreamThatNeverAnswersInitializeIsRegisteredWithItsError() {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "init-" + System.nanoTime()), "p");
        Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "mute", "url", base() + "/mcp/silent-init"));
        assertThat(c.status()).as(c.raw()).isEqualTo(201);
        assertThat(c.body().path("status").asText()).isEqualTo("error");
        assertThat(c.body().path("lastError").asText()).contains("did not answer within 3 s");
        assertThat(c.body().path("tools")).isEmpty();
        Http.Response test = http.post("/v1/projects/" + project + "/mcp-servers/test-connection", owner,
                Map.of("url", base() + "/mcp/garbage"));
        assertThat(test.body().path("ok").asBoolean()).as(test.raw()).isTrue();
        Http.Response bad = http.post("/v1/projects/" + project + "/mcp-servers/test-connection", owner,
                Map.of("url", "file:///etc/passwd"));
        assertThat(problem(bad, 400)).isEqualTo("validation_failed");
    }
}
