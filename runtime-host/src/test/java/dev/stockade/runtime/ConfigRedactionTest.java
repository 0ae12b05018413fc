package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.config.RuntimeConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stockade runtime config}: passwords in the user information of URL values never print (in settings,
 * in derived endpoints, in problems), and a secret prints as a fixed marker that does not reveal its length.
 */
class ConfigRedactionTest {
    @TempDir
    Path home;

    private String report(Map<String, String> vars) {
        Map<String, String> env = new HashMap<>(vars);
        env.put("AGENT_HOME", home.toString());
        RuntimeConfig c = RuntimeConfig.load(env, "/nonexistent-home");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ConfigReport.print(c, new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void userInformationOfEveryUrlValueIsRedacted() {
        Map<String, String> vars = new HashMap<>();
        vars.put("PLATFORM_API_URL", "https://svc:pw-platform-1@platform.example.com");
        vars.put("HTTPS_PROXY", "http://sandbox:pw-proxy-2@proxy.internal:3128");
        vars.put("LANGFUSE_BASE_URL", "https://lf:pw-langfuse-3@lf.example.com");
        vars.put("OTEL_EXPORTER_OTLP_ENDPOINT", "https://tokenonly-4@otel.example.com/v1");
        vars.put("MODEL_CATALOG_URL", "https://u:pw-catalog-5@cat.example.com/models.json");
        vars.put("OPENAI_REALTIME_URL", "wss://u:pw-realtime-6@rt.example.com/v1/realtime");
        vars.put("OPENAI_REALTIME_API_KEY", "rk");
        vars.put("AGENT_PUBLIC_URL", "https://u:p@ss/w0rd-7@agent.example.com/prefix");
        vars.put("LLM_PROVIDER", "openai");
        vars.put("GOOGLE_BOT_EMAIL", "bot@example.com");
        String text = report(vars);
        for (String password : List.of("pw-platform-1", "pw-proxy-2", "pw-langfuse-3", "tokenonly-4", "pw-catalog-5",
                "pw-realtime-6", "ss/w0rd-7", "w0rd-7")) {
            assertThat(text).doesNotContain(password);
        }
        assertThat(text).containsPattern("PLATFORM_API_URL +https://\\*\\*\\*:\\*\\*\\*@platform.example.com +environment")
                .containsPattern("HTTPS_PROXY +http://\\*\\*\\*:\\*\\*\\*@proxy.internal:3128 ")
                .containsPattern("OTEL_EXPORTER_OTLP_ENDPOINT +https://\\*\\*\\*@otel.example.com/v1 ")
                .containsPattern("AGENT_PUBLIC_URL +https://\\*\\*\\*:\\*\\*\\*@agent.example.com/prefix ")
                // the chat endpoint is derived from PLATFORM_API_URL, the voice endpoint is OPENAI_REALTIME_URL
                .contains("chat endpoint                                https://***:***@platform.example.com/llm/openai")
                .contains("wss://***:***@rt.example.com/v1/realtime (step 1 of 3)")
                .containsPattern("GOOGLE_BOT_EMAIL +bot@example.com ");
    }

    @Test
    void aProxyWrittenWithoutASchemeAndAValueInAProblemAreRedactedToo() {
        String text = report(Map.of("HTTPS_PROXY", "user:pw-bare-8@proxy:3128",
                "PLATFORM_INFERENCE_OPENAI_BASE_URL", "ftp://u:pw-problem-9@gateway/llm"));
        assertThat(text).doesNotContain("pw-bare-8").doesNotContain("pw-problem-9")
                .containsPattern("HTTPS_PROXY +\\*\\*\\*:\\*\\*\\*@proxy:3128 ")
                .contains("error: PLATFORM_INFERENCE_OPENAI_BASE_URL: `ftp://***:***@gateway/llm` is not an http:// "
                        + "or https:// URL with a host");
    }

    @Test
    void secretsOfAnyLengthPrintAsTheSameMarker() {
        String text = report(Map.of("OPENAI_API_KEY", "k", "SLACK_BOT_TOKEN", "x".repeat(97),
                "AWS_SECRET_ACCESS_KEY", "a-forty-character-secret-key-0123456789"));
        assertThat(text).containsPattern("OPENAI_API_KEY +\\*{6} \\(redacted\\) +environment")
                .containsPattern("SLACK_BOT_TOKEN +\\*{6} \\(redacted\\) +environment")
                .containsPattern("AWS_SECRET_ACCESS_KEY +\\*{6} \\(redacted\\) +environment")
                .doesNotContain("xxxxx").doesNotContain("0123456789").doesNotContainPattern("\\b(1|97|39|40)\\b chars");
    }
}
