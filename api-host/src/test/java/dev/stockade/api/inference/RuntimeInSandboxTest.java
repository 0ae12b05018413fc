package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scenario with the project's own runtime: a project policy enables managed inference on Foundry
 * (azure) and sets the runtime's provider in its env; in a real sandbox, {@code stockade-runtime.jar} starts with
 * nothing but the sandbox's environment, and a chat turn reaches the provider double through the platform's
 * {@code azure/anthropic} route with the sandbox's token swapped for the installation's key; the call is metered to
 * the sandbox.
 */
@MicronautTest(transactional = false)
class RuntimeInSandboxTest extends PlatformTest {
    private static final String KEY = "azure-deployment-key-runtime";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The runtime as the build packages it (runtime-host builds before api-host). */
    private static final Path RUNTIME_JAR = Path.of("..", "runtime-host", "target", "stockade-runtime.jar");

    @Inject
    LocalProvisioner provisioner;

    private final ProviderDouble upstream = ProviderDouble.start();

    @Override
    protected Map<String, String> extraProperties() {
        InferenceFixtures.writeSecret(dataDir, "azure", KEY);
        return Map.of("inference.allow-loopback-unsafe", "true", "inference.azure.enabled", "true",
                "inference.azure.base-url", upstream.baseUrl(), "inference.azure.api-key-secret", "azure");
    }

    @BeforeAll
    void tools() {
        Requires.bubblewrap();
        assertThat(RUNTIME_JAR).as("the runtime jar (./mvnw -pl runtime-host package)").isRegularFile();
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void theRuntimeInASandboxTalksToItsModelThroughThePlatform() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "runtime-e2e");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies", owner, "application/yaml", """
                name: agent-model
                managedInference:
                  enabled: true
                  provider: azure
                  env:
                    LLM_PROVIDER: azure
                    AZURE_MODEL_ID: claude-haiku-4-5
                """);
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response created = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner,
                "application/yaml", "name: agent\ncpu: 1000m\nmemory: 1Gi\npolicies: [" + policy.text("id") + "]\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        http.awaitState("/v1/projects/" + project + "/sandboxes/" + id, owner, "running");
        Path volume = dataDir.resolve("sandboxes").resolve(id).resolve("volume");
        Files.copy(RUNTIME_JAR, volume.resolve("stockade-runtime.jar"), StandardCopyOption.REPLACE_EXISTING);
        volume.resolve("stockade-runtime.jar").toFile().setReadable(true, false);

        sh(id, "(java -jar /workspace/stockade-runtime.jar --data-dir /workspace/agent > /workspace/runtime.log 2>&1 &)");
        try {
            Await.until("the runtime listening in the sandbox", Await.LONG,
                    () -> sh(id, "curl --noproxy '*' -s -o /dev/null -w '%{http_code}' localhost:3003/agents/profile").equals("200"));
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "; the runtime's log: " + sh(id, "cat /workspace/runtime.log; ps -ef"),
                    e);
        }
        String thread = JSON.readTree(sh(id, "curl --noproxy '*' -s -X POST -H 'content-type: application/json' -d '{}' "
                + "localhost:3003/agents/threads")).path("id").asText();
        String answer = sh(id, "curl --noproxy '*' -s -X POST -H 'content-type: application/json' -d '{\"text\":\"hi\"}' "
                + "localhost:3003/agents/threads/" + thread + "/messages");
        assertThat(JSON.readTree(answer).path("delivered").get(0).asText()).as(answer + sh(id,
                "cat /workspace/runtime.log")).isEqualTo("Hello from the double");

        ProviderDouble.Received got = upstream.received.get(0);
        assertThat(got.path()).isEqualTo("/anthropic/v1/messages");
        assertThat(got.header("api-key")).isEqualTo(KEY);
        assertThat(got.body().path("model").asText()).isEqualTo("claude-haiku-4-5");
        String usage = "/v1/orgs/" + org + "/usage-costs?groupBy=sandbox";
        Await.until("the runtime's call in the ledger", Await.BOUND,
                () -> http.get(usage, owner).body().path("groups").size() == 1);
        assertThat(http.get(usage, owner).body().path("groups").get(0).path("sandboxId").asText()).isEqualTo(id);
        sh(id, "pkill -f stockade-runtime.jar || true");
    }

    /** What {@code command} prints inside the sandbox (stdout and stderr). */
    private String sh(String sandboxId, String command) {
        try (ExecProcess p = provisioner.exec(sandboxId, new ExecRequest(List.of("sh", "-c", command + " 2>&1"),
                false, 0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
            p.exit().get(60, TimeUnit.SECONDS);
            return out.strip();
        } catch (Exception e) {
            throw new AssertionError("exec in the sandbox failed: " + command, e);
        }
    }
}
