package dev.stockade.api.sandbox;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code port-readiness}: an exposed port is ready once something in the sandbox listens on it, and not before. */
@MicronautTest(transactional = false)
class PortReadinessTest extends PlatformTest {
    @Inject
    LocalProvisioner provisioner;

    private JsonNode ports(String path, String owner) {
        return http.get(path + "/port-readiness", owner).body().path("ports");
    }

    @Test
    void aPortIsReadyWhileAServerInTheSandboxListensOnIt() throws Exception {
        Requires.bubblewrap();
        Requires.executable("/usr/bin/python3", "python3"); // it serves the test port
        String owner = ownerToken();
        String project = createProject(owner, createOrg(owner, "ports"), "p");
        Http.Response created = http.post("/v1/projects/" + project + "/sandboxes", owner, Map.of("name", "web",
                "cpu", "250m", "memory", "128Mi", "ports", List.of(Map.of("port", 8080, "visibility", "private"),
                        Map.of("port", 9090, "visibility", "public"))));
        String path = "/v1/projects/" + project + "/sandboxes/" + created.text("id");
        // provisioning runs on worker threads
        Await.until("the sandbox to run", Await.LONG, () -> http.get(path, owner).text("state").equals("running"));
        assertThat(ports(path, owner)).extracting(p -> p.path("ready").asBoolean()).containsExactly(false, false);

        try (ExecProcess server = provisioner.exec(created.text("id"), new ExecRequest(List.of("python3", "-m",
                "http.server", "8080", "--bind", "0.0.0.0"), false, 0, 0))) {
            // python starts its server in the sandbox: seconds on a loaded machine
            Await.until("port 8080 to be ready", Await.LONG, () -> ports(path, owner).get(0).path("ready").asBoolean());
            JsonNode both = ports(path, owner);
            assertThat(both.get(0).path("visibility").asText()).isEqualTo("private");
            assertThat(both.get(1).path("ready").asBoolean()).isFalse();
        }
    }
}
