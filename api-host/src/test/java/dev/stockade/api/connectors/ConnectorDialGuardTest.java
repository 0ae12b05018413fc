package dev.stockade.api.connectors;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * With the install's defaults, a connector URL that points at loopback (in any spelling), link-local metadata or the
 * platform itself is never dialed: registration records the refusal, and nothing reaches the address.
 */
@MicronautTest(transactional = false)
class ConnectorDialGuardTest extends PlatformTest {

    @Test
    void loopbackMetadataAndMappedAddressesAreRefusedByTheDialGuard() {
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "guard-" + System.nanoTime()), "p");
        String[] urls = {
            "http://127.0.0.1:" + server.getPort() + "/mcp",
            "http://localhost:" + server.getPort() + "/mcp",
            "http://[::ffff:127.0.0.1]:" + server.getPort() + "/mcp",
            "http://169.254.169.254/latest/meta-data",
            "http://[::1]:" + server.getPort() + "/mcp",
            // short IPv4 forms (issue 25, item 13): judged by the dial guard as the address they are, not malformed
            "http://127.1:" + server.getPort() + "/mcp",
            "http://0x7f.0.0.1:" + server.getPort() + "/mcp",
        };
        int i = 0;
        for (String url : urls) {
            Http.Response c = http.post("/v1/projects/" + project + "/mcp-servers", owner,
                    Map.of("name", "c" + i++, "url", url));
            assertThat(c.status()).as(c.raw()).isEqualTo(201);
            assertThat(c.body().path("status").asText()).as(url).isEqualTo("error");
            assertThat(c.body().path("lastError").asText()).as(url).startsWith("the connector is not dialed");
            if (url.contains("127.1:") || url.contains("0x7f")) {
                assertThat(c.body().path("url").asText()).isEqualTo("http://127.0.0.1:" + server.getPort() + "/mcp");
            }
        }
        Http.Response preview = http.post("/v1/projects/" + project + "/mcp-servers/discover/preview", owner,
                Map.of("url", "http://127.0.0.1:" + server.getPort() + "/mcp"));
        assertThat(preview.body().path("ok").asBoolean()).isFalse();
        assertThat(problem(http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "Bad Name", "url", "https://example.com/mcp")), 400)).isEqualTo("validation_failed");
        assertThat(problem(http.post("/v1/projects/" + project + "/mcp-servers", owner,
                Map.of("name", "creds", "url", "https://user:pw@example.com/mcp")), 400)).isEqualTo("validation_failed");
    }
}
