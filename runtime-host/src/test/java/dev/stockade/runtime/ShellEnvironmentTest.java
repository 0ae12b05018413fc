package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.agent.Conversations;
import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.config.Variable;
import dev.stockade.runtime.config.Variables;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shell tool's child runs with an allowlisted environment: a real runtime, a real {@code bash -c env}
 * asked for by the model, and the runtime's provider keys, tokens and passwords nowhere in what the child saw
 * or in what went back to the model.
 */
class ShellEnvironmentTest {
    /** Secrets of the runtime's environment: its own credentials and an unrelated token it happens to have. */
    private static final Map<String, String> SECRETS = Map.of(
            "OPENAI_API_KEY", "sk-openai-secret-4242",
            "AWS_SECRET_ACCESS_KEY", "aws-secret-access-4242",
            "AWS_BEARER_TOKEN_BEDROCK", "bedrock-bearer-4242",
            "SLACK_BOT_TOKEN", "xoxb-slack-secret-4242",
            "LANGFUSE_SECRET_KEY", "lf-secret-4242",
            "PLATFORM_INFERENCE_OPENAI_API_KEY", "platform-key-4242",
            "GOOGLE_BOT_PASSWORD", "meeting-password-4242",
            "GITHUB_TOKEN", "ghp-unrelated-token-4242");

    @TempDir
    Path home;

    @Test
    void theShellToolSeesNoSecretOfTheRuntime() throws Exception {
        Map<String, String> env = new HashMap<>(SECRETS);
        env.put("PATH", System.getenv("PATH"));
        env.put("LANG", "C.UTF-8");
        env.put("TZ", "Europe/Berlin");
        env.put("HTTPS_PROXY", "http://127.0.0.1:9");
        try (ProviderDouble provider = new ProviderDouble()) {
            Map<String, String> all = new HashMap<>(TestRuntime.azure(provider));
            all.putAll(env);
            try (TestRuntime rt = new TestRuntime(home, all).start()) {
                String thread = rt.post("/agents/threads", "{}").json().path("id").asText();
                provider.enqueue(ProviderDouble.Reply.tool(null, "shell", "{\"command\":\"env\"}"),
                        ProviderDouble.Reply.text("done"));
                assertThat(rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"show env\"}").status())
                        .isEqualTo(200);
                String output = toolOutput(rt, thread);
                assertThat(output).startsWith("exit 0\n").contains("PATH=" + System.getenv("PATH"))
                        .contains("TZ=Europe/Berlin");
                Set<String> names = Arrays.stream(output.split("\n")).skip(1).filter(l -> l.contains("="))
                        .map(l -> l.substring(0, l.indexOf('='))).collect(Collectors.toCollection(TreeSet::new));
                // What bash adds itself (PWD, SHLVL, _) plus the allowlisted variables given above; nothing else.
                assertThat(names).containsExactlyInAnyOrder("PATH", "LANG", "TZ", "HTTPS_PROXY", "PWD", "SHLVL", "_");
                for (String secret : SECRETS.values()) {
                    assertThat(output).doesNotContain(secret);
                    for (ProviderDouble.Call c : provider.chats()) {
                        assertThat(new String(c.raw(), StandardCharsets.UTF_8)).doesNotContain(secret);
                    }
                }
                assertThat(output).doesNotContain("sk-azure-test-secret");
            }
        }
    }

    @Test
    void aRuntimeProcessStartedWithSecretsKeepsThemFromTheShell() throws Exception {
        try (ProviderDouble provider = new ProviderDouble()) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", System.getProperty("java.class.path"), "dev.stockade.runtime.RuntimeMain", "serve")
                    .redirectErrorStream(true);
            pb.environment().clear(); // exactly the environment below: the runtime's own, secrets included
            pb.environment().putAll(SECRETS);
            pb.environment().putAll(TestRuntime.azure(provider));
            pb.environment().putAll(Map.of("PATH", System.getenv("PATH"), "HOME", home.toString(),
                    "AGENT_HOME", home.toString(), "PORT", "0", "TERM", "dumb"));
            Process p = pb.start();
            try {
                BlockingQueue<String> lines = new LinkedBlockingQueue<>();
                Thread reader = new Thread(() -> {
                    try {
                        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8)).lines()
                                .forEach(lines::add);
                    } catch (UncheckedIOException e) {
                        // the process was stopped: its output ended
                    }
                }, "runtime-output");
                reader.setDaemon(true);
                reader.start();
                String base = "http://127.0.0.1:" + readyPort(lines);
                String thread = ProviderDouble.JSON.readTree(post(base + "/agents/threads", "{}")).path("id").asText();
                provider.enqueue(ProviderDouble.Reply.tool(null, "shell", "{\"command\":\"env\"}"),
                        ProviderDouble.Reply.text("done"));
                post(base + "/agents/threads/" + thread + "/messages", "{\"text\":\"show env\"}");
                String output = "";
                for (JsonNode m : ProviderDouble.JSON.readTree(get(base + "/agents/threads/" + thread + "/messages"))
                        .path("messages")) {
                    if (m.path("role").asText().equals("tool_result")) {
                        output = ProviderDouble.JSON.readTree(m.path("content").asText()).path("output").asText();
                    }
                }
                assertThat(output).startsWith("exit 0\n").contains("TERM=dumb").contains("HOME=" + home);
                for (Map.Entry<String, String> secret : SECRETS.entrySet()) {
                    assertThat(output).doesNotContain(secret.getValue()).doesNotContain(secret.getKey() + "=");
                }
                assertThat(output).doesNotContain("AZURE_API_KEY").doesNotContain("sk-azure-test-secret");
            } finally {
                p.destroy();
                assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    /** The port from the runtime's {@code runtime.ready} log line, waiting at most 30 s for it. */
    private static int readyPort(BlockingQueue<String> lines) throws Exception {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<String> seen = new ArrayList<>();
        while (System.nanoTime() < end) {
            String line = lines.poll(end - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (line == null) {
                break;
            }
            seen.add(line);
            if (line.contains("\"event\":\"runtime.ready\"")) {
                return ProviderDouble.JSON.readTree(line).path("port").asInt();
            }
        }
        throw new AssertionError("the runtime did not become ready in 30 s: " + seen);
    }

    private static String post(String url, String body) throws Exception {
        HttpResponse<String> r = TestRuntime.HTTP.send(HttpRequest.newBuilder(URI.create(url))
                .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isBetween(200, 201);
        return r.body();
    }

    private static String get(String url) throws Exception {
        return TestRuntime.HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    @Test
    void noSecretVariableOfTheRuntimeIsOnTheAllowlist() {
        List<String> secrets = Variables.ALL.stream().filter(Variable::secret).map(Variable::name).toList();
        assertThat(secrets).isNotEmpty().noneMatch(ChildEnvironment::allowed);
        assertThat(ChildEnvironment.of(Map.of("LC_ALL", "C", "LC_", "x", "AZURE_API_KEY", "k")).variables())
                .containsExactly(Map.entry("LC_ALL", "C"));
    }

    private static String toolOutput(TestRuntime rt, String thread) throws Exception {
        for (Conversations.Message m : new Conversations(rt.runtime.store()).messages(thread)) {
            if (m.role().equals("tool_result")) {
                return ProviderDouble.JSON.readTree(m.content()).path("output").asText();
            }
        }
        throw new AssertionError("the shell tool did not run");
    }
}
