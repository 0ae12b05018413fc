package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real process: a bad value stops startup with one clear line; `config` prints and exits. */
class StartupTest {
    @TempDir
    Path home;

    private Process run(Map<String, String> env, String... args) throws Exception {
        java.util.List<String> cmd = new java.util.ArrayList<>(java.util.List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), "dev.stockade.runtime.RuntimeMain"));
        cmd.addAll(java.util.List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("AGENT_HOME", home.toString());
        pb.environment().remove("PLATFORM_API_URL");
        pb.environment().putAll(env);
        return pb.start();
    }

    @Test
    void malformedManagedOpenAiBaseUrlStopsStartup() throws Exception {
        Process p = run(Map.of("PLATFORM_INFERENCE_OPENAI_BASE_URL", "gateway:8080/llm",
                "PLATFORM_INFERENCE_OPENAI_API_KEY", "sk-should-not-print", "PORT", "0"));
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(out).contains("stockade runtime: PLATFORM_INFERENCE_OPENAI_BASE_URL: `gateway:8080/llm` is not an "
                + "http:// or https:// URL with a host").contains("not starting").doesNotContain("sk-should-not-print")
                .doesNotContain("Exception");
    }

    @Test
    void configSubcommandPrintsResolvedValues() throws Exception {
        Process p = run(Map.of("AZURE_API_KEY", "azure-secret-value"), "--data-dir", home.resolve("d").toString(),
                "config");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isZero();
        assertThat(out).containsPattern("AGENT_DATA_DIR +" + home.resolve("d") + " +environment")
                .doesNotContain("azure-secret-value");
    }
}
