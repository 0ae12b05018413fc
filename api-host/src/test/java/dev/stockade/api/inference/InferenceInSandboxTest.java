package dev.stockade.api.inference;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.api.sandbox.local.LocalProvisioner;
import dev.stockade.api.sandbox.provision.ExecProcess;
import dev.stockade.api.sandbox.provision.ExecRequest;
import dev.stockade.api.support.Http;
import dev.stockade.api.support.Node;
import dev.stockade.api.support.PlatformTest;
import dev.stockade.api.support.Requires;
import dev.stockade.testing.Await;
import io.micronaut.test.extensions.junit5.annotation.MicronautTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The scenario of managed inference end to end: a project policy enables a backend; a real sandbox is created with
 * it; inside, the official openai SDK starts with nothing but the sandbox's environment (the env plan's variables as
 * the provisioner set them), streams its answer from the provider double through the platform, and the call is in
 * the ledger attributed to the sandbox and in the audit trail; a cap reached answers 429 while the sandbox runs on.
 */
@MicronautTest(transactional = false)
class InferenceInSandboxTest extends PlatformTest {
    private static final String KEY = "openai-deployment-key-e2e";
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    LocalProvisioner provisioner;

    private final ProviderDouble upstream = ProviderDouble.start();

    @Override
    protected Map<String, String> extraProperties() {
        InferenceFixtures.writeSecret(dataDir, "openai", KEY);
        return Map.of("inference.allow-loopback-unsafe", "true", "inference.openai.enabled", "true",
                "inference.openai.base-url", upstream.baseUrl(), "inference.openai.api-key-secret", "openai");
    }

    @BeforeAll
    void tools() {
        Requires.bubblewrap();
    }

    @AfterAll
    void stopDouble() {
        upstream.close();
    }

    @Test
    void aSandboxCallsItsModelThroughThePlatformWithTheOfficialSdk() throws Exception {
        String owner = ownerToken();
        String org = createOrg(owner, "inference-e2e");
        String project = createProject(owner, org, "agents");
        Http.Response policy = http.send("POST", "/v1/projects/" + project + "/policies", owner, "application/yaml", """
                name: models
                managedInference:
                  enabled: true
                  provider: openai
                  env:
                    OPENAI_MODEL: gpt-4o-mini
                """);
        assertThat(policy.status()).as(policy.raw()).isEqualTo(201);
        Http.Response created = http.send("POST", "/v1/projects/" + project + "/sandboxes", owner,
                "application/yaml", "name: agent\ncpu: 500m\nmemory: 512Mi\npolicies: [" + policy.text("id") + "]\n");
        assertThat(created.status()).as(created.raw()).isEqualTo(201);
        String id = created.text("id");
        String path = "/v1/projects/" + project + "/sandboxes/" + id;
        http.awaitState(path, owner, "running");
        install(id);

        JsonNode first = call(id);
        assertThat(first.path("ok").asBoolean()).as(first.toString()).isTrue();
        assertThat(first.path("text").asText()).isEqualTo("Hello from the double");
        ProviderDouble.Received got = upstream.received.get(0);
        assertThat(got.path()).isEqualTo("/v1/chat/completions");
        assertThat(got.header("authorization")).isEqualTo("Bearer " + KEY);

        String usage = "/v1/orgs/" + org + "/usage-costs?groupBy=sandbox";
        Await.until("the sandbox's call in the ledger", Await.BOUND,
                () -> http.get(usage, owner).body().path("groups").size() == 1);
        JsonNode group = http.get(usage, owner).body().path("groups").get(0);
        assertThat(group.path("sandboxId").asText()).isEqualTo(id);
        assertThat(group.path("usage").path("inputTokens").asLong()).isEqualTo(ProviderDouble.INPUT);

        // the sandbox's own cap reached: model calls stop with 429, the sandbox keeps running
        assertThat(http.put("/v1/orgs/" + org + "/spending-limits/projects/" + project + "/sandboxes/" + id, owner,
                Map.of("amountUsd", "0")).status()).isEqualTo(200);
        JsonNode refused = call(id);
        assertThat(refused.path("ok").asBoolean()).isFalse();
        assertThat(refused.path("status").asInt()).isEqualTo(429);
        assertThat(http.get(path, owner).body().path("state").asText()).isEqualTo("running");
        JsonNode trail = http.get("/v1/orgs/" + org + "/audit-trail?kind=inference", owner).body().path("items");
        assertThat(trail).anyMatch(e -> e.path("outcome").asText().equals("denied")
                && e.path("details").path("sandboxId").asText().equals(id));
    }

    /** Puts the SDK and the script into the sandbox's volume (its /workspace). */
    private void install(String sandboxId) throws IOException {
        Path volume = dataDir.resolve("sandboxes").resolve(sandboxId).resolve("volume");
        copyTree(Node.DIR.resolve("node_modules/openai"), volume.resolve("node_modules/openai"));
        Files.copy(Node.DIR.resolve("llm-call.mjs"), volume.resolve("llm-call.mjs"),
                StandardCopyOption.REPLACE_EXISTING);
        try (Stream<Path> all = Files.walk(volume)) {
            all.forEach(p -> p.toFile().setReadable(true, false));
        }
    }

    private JsonNode call(String sandboxId) throws Exception {
        try (ExecProcess p = provisioner.exec(sandboxId, new ExecRequest(List.of("node", "/workspace/llm-call.mjs"),
                false, 0, 0))) {
            p.stdin().close();
            String out = new String(p.stdout().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(p.stderr().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.exit().get(60, TimeUnit.SECONDS)).as(out + err).isNotNull();
            String last = out.strip().lines().reduce((a, b) -> b).orElse("");
            assertThat(last).as("stdout %s stderr %s", out, err).startsWith("{");
            return JSON.readTree(last);
        }
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> all = Files.walk(from)) {
            for (Path p : (Iterable<Path>) all::iterator) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }
}
