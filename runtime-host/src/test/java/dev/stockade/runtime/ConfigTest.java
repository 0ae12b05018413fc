package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.stockade.runtime.config.ProviderEndpoints;
import dev.stockade.runtime.config.ProviderKind;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.runtime.config.Variables;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Configuration: defaults, .env, sources, validation rules with bad values, voice resolution order. */
class ConfigTest {
    @TempDir
    Path home;

    private RuntimeConfig load(String... kv) {
        Map<String, String> env = new HashMap<>();
        env.put("AGENT_HOME", home.toString());
        for (int i = 0; i < kv.length; i += 2) {
            env.put(kv[i], kv[i + 1]);
        }
        return RuntimeConfig.load(env, "/nonexistent-home");
    }

    @Test
    void everyVariableHasItsDefault() {
        RuntimeConfig c = load();
        assertThat(c.problems()).isEmpty();
        assertThat(c.provider()).isEqualTo(ProviderKind.BEDROCK);
        assertThat(c.port()).isEqualTo(3003);
        assertThat(c.dataDir()).isEqualTo(home.resolve("data"));
        assertThat(c.databaseFile()).isEqualTo(home.resolve("data/agent.db"));
        assertThat(c.compactionThresholdPercent()).isEqualTo(90);
        assertThat(c.compactionTailMessages()).isEqualTo(6);
        assertThat(c.meetingTimeoutMinutes()).isEqualTo(60);
        assertThat(c.meetingAdmissionTimeoutSeconds()).isEqualTo(300);
        assertThat(c.value("TEAM_NAME")).isEqualTo("Local");
        assertThat(c.value("OWNER_USER_ID")).isEqualTo(Variables.LOCAL_OWNER);
        assertThat(c.value("BEDROCK_MODEL_ID")).isEqualTo("us.anthropic.claude-opus-5");
        assertThat(c.value("BEDROCK_EMBEDDING_MODEL_ID")).isEqualTo("amazon.titan-embed-text-v2:0");
        assertThat(c.value("AWS_REGION")).isEqualTo("us-east-1");
        assertThat(c.value("AZURE_MODEL_ID")).isEqualTo("claude-opus-5");
        assertThat(c.value("OPENAI_MODEL_ID")).isEqualTo("gpt-5.6-sol");
        assertThat(c.value("OPENAI_REALTIME_VOICE")).isEqualTo("marin");
        assertThat(c.value("LANGFUSE_BASE_URL")).isEqualTo("http://localhost:3100");
        assertThat(c.value("AGENT_SKILLS_DIR")).isEqualTo(home.resolve("data/skills").toString());
        assertThat(c.value("AGENT_HTTP_URL")).isEqualTo("http://localhost:3003");
        assertThat(c.contextWindowTokens()).isNull();
        assertThat(c.voice().available()).isFalse();
        assertThat(c.warnings()).anyMatch(w -> w.startsWith("no LLM credential for bedrock"));
        assertThat(c.settings().all()).hasSize(Variables.ALL.size());
    }

    @Test
    void dotEnvInTheDataHomeIsReadAndTheEnvironmentWins() throws Exception {
        Files.createDirectories(home.resolve("data"));
        Files.writeString(home.resolve("data/.env"), "# agent\nexport PORT=4000\nTEAM_NAME=\"Blue Team\"\n"
                + "AGENT_NAME=Otto # inline comment\nCOMPACTION_TAIL_MESSAGES=8\n");
        RuntimeConfig c = load("COMPACTION_TAIL_MESSAGES", "4");
        assertThat(c.port()).isEqualTo(4000);
        assertThat(c.settings().get("PORT").source()).endsWith(".env:2");
        assertThat(c.value("TEAM_NAME")).isEqualTo("Blue Team");
        assertThat(c.value("AGENT_NAME")).isEqualTo("Otto");
        assertThat(c.compactionTailMessages()).isEqualTo(4);
        assertThat(c.settings().get("COMPACTION_TAIL_MESSAGES").source()).isEqualTo("environment");
        assertThat(c.settings().get("TEAM_NAME").source()).endsWith(".env:3");
        assertThat(c.settings().get("AGENT_ID").source()).isEqualTo("unset");
        assertThat(c.settings().get("AWS_REGION").source()).isEqualTo("default");
    }

    @Test
    void aMalformedDotEnvLineIsAPositionedProblem() throws Exception {
        Files.createDirectories(home.resolve("data"));
        Files.writeString(home.resolve("data/.env"), "PORT=4000\n  not a line\n");
        RuntimeConfig c = load();
        assertThat(c.problems()).hasSize(1);
        assertThat(c.problems().get(0)).endsWith(".env:2:3: expected `NAME=value`; the line has no `=` (its text is not shown)");
    }

    @Test
    void unknownProviderFallsBackToBedrockWithAWarning() {
        RuntimeConfig c = load("LLM_PROVIDER", "anthropic");
        assertThat(c.problems()).isEmpty();
        assertThat(c.provider()).isEqualTo(ProviderKind.BEDROCK);
        assertThat(c.warnings()).contains("LLM_PROVIDER: `anthropic` is not bedrock, bedrock-mantle, azure or openai; "
                + "using bedrock");
        assertThat(load("LLM_PROVIDER", " OpenAI ").provider()).isEqualTo(ProviderKind.OPENAI);
    }

    @Test
    void foundryBaseUrlMustEndAtAnthropicV1() {
        assertThat(load("AZURE_FOUNDRY_BASE_URL", "https://r.services.ai.azure.com/anthropic").problems())
                .containsExactly("AZURE_FOUNDRY_BASE_URL: `https://r.services.ai.azure.com/anthropic` must end at "
                        + "/anthropic/v1");
        assertThat(load("AZURE_FOUNDRY_BASE_URL", "ftp://r/anthropic/v1").problems()).hasSize(1);
        RuntimeConfig ok = load("LLM_PROVIDER", "azure", "AZURE_FOUNDRY_BASE_URL", "https://r.example/anthropic/v1/",
                "AZURE_API_KEY", "k");
        assertThat(ok.problems()).isEmpty();
        assertThat(ok.endpoints().chatBase()).isEqualTo("https://r.example/anthropic");
        assertThat(load("LLM_PROVIDER", "azure", "AZURE_RESOURCE_NAME", "acme").endpoints().chatBase())
                .isEqualTo("https://acme.services.ai.azure.com/anthropic");
    }

    @Test
    void malformedManagedOpenAiBaseUrlIsAProblem() {
        for (String bad : List.of("not a url", "ftp://gateway/llm/openai", "http:///nohost", "gateway:8080")) {
            assertThat(load("PLATFORM_INFERENCE_OPENAI_BASE_URL", bad, "PLATFORM_INFERENCE_OPENAI_API_KEY", "k")
                    .problems()).as(bad).anyMatch(p -> p.startsWith("PLATFORM_INFERENCE_OPENAI_BASE_URL:"));
        }
    }

    @Test
    void realtimeUrlMustBeWssExceptOnLoopback() {
        assertThat(load("OPENAI_REALTIME_URL", "ws://voice.example.com/v1/realtime").problems())
                .containsExactly("OPENAI_REALTIME_URL: `ws://voice.example.com/v1/realtime` must be wss:// (plain ws:// "
                        + "only for localhost, 127.0.0.1 and [::1])");
        assertThat(load("OPENAI_REALTIME_URL", "https://voice.example.com").problems()).hasSize(1);
        for (String ok : List.of("wss://voice.example.com/v1/realtime", "ws://localhost:8080/rt", "ws://127.0.0.1/rt",
                "ws://[::1]:9000/rt")) {
            assertThat(load("OPENAI_REALTIME_URL", ok).problems()).as(ok).isEmpty();
        }
    }

    @Test
    void contextWindowIsIgnoredUnlessAPositiveInteger() {
        for (String bad : List.of("0", "-5", "12k", "1.5", "")) {
            RuntimeConfig c = load("CONTEXT_WINDOW_TOKENS", bad);
            assertThat(c.contextWindowTokens()).as(bad).isNull();
            assertThat(c.problems()).isEmpty();
            assertThat(c.warnings()).anyMatch(w -> w.startsWith("CONTEXT_WINDOW_TOKENS: `" + bad + "`"));
        }
        assertThat(load("CONTEXT_WINDOW_TOKENS", "128000").contextWindowTokens()).isEqualTo(128000);
    }

    @Test
    void meetingLimitsFallBackWhenNonPositiveOrMalformed() {
        for (String bad : List.of("0", "-1", "ten", "")) {
            RuntimeConfig c = load("MEETING_TIMEOUT_MINUTES", bad, "MEETING_ADMISSION_TIMEOUT_SECONDS", bad);
            assertThat(c.meetingTimeoutMinutes()).isEqualTo(60);
            assertThat(c.meetingAdmissionTimeoutSeconds()).isEqualTo(300);
            assertThat(c.warnings()).anyMatch(w -> w.startsWith("MEETING_TIMEOUT_MINUTES: `" + bad + "`"));
        }
        assertThat(load("MEETING_TIMEOUT_MINUTES", "15").meetingTimeoutMinutes()).isEqualTo(15);
    }

    @Test
    void otherBadValuesStopStartup() {
        assertThat(load("PORT", "70000").problems()).containsExactly("PORT: `70000` must be an integer from 0 to 65535");
        assertThat(load("COMPACTION_THRESHOLD_PERCENT", "150").problems()).hasSize(1);
        assertThat(load("COMPACTION_THRESHOLD_PERCENT", "0").compactionThresholdPercent()).isZero();
        assertThat(load("AGENT_ID", "agent-7").problems()).containsExactly("AGENT_ID: `agent-7` is not a UUID");
        assertThat(load("DATABASE_URL", "postgres://db/agent").problems()).hasSize(1);
        assertThat(load("DATABASE_URL", "file:/tmp/x/agent.db").databaseFile()).isEqualTo(Path.of("/tmp/x/agent.db"));
        assertThat(load("AGENT_PUBLIC_URL", "https://agents.example.com/team-a///").publicUrl())
                .isEqualTo("https://agents.example.com/team-a");
    }

    @Test
    void voiceCredentialResolvesInThreeSteps() {
        String sentinel = "__platform_cred:123e4567-e89b-12d3-a456-426614174000__";
        var explicit = load("OPENAI_REALTIME_URL", "wss://rt.example.com/v1/realtime", "OPENAI_REALTIME_API_KEY", "rk",
                "PLATFORM_INFERENCE_OPENAI_BASE_URL", "https://gw.example.com/llm/openai",
                "PLATFORM_INFERENCE_OPENAI_API_KEY", sentinel, "OPENAI_API_KEY", "ok").voice();
        assertThat(explicit.step()).isEqualTo(1);
        assertThat(explicit.url()).isEqualTo("wss://rt.example.com/v1/realtime");
        assertThat(explicit.apiKey()).isEqualTo("rk");
        // An explicit endpoint never borrows the managed or public key.
        var noKey = load("OPENAI_REALTIME_URL", "wss://rt.example.com", "PLATFORM_INFERENCE_OPENAI_BASE_URL",
                "https://gw.example.com/llm/openai", "PLATFORM_INFERENCE_OPENAI_API_KEY", sentinel,
                "OPENAI_API_KEY", "ok").voice();
        assertThat(noKey.available()).isFalse();
        var managed = load("PLATFORM_INFERENCE_OPENAI_BASE_URL", "https://gw.example.com/llm/openai/",
                "PLATFORM_INFERENCE_OPENAI_API_KEY", sentinel, "OPENAI_API_KEY", "ok").voice();
        assertThat(managed.step()).isEqualTo(2);
        assertThat(managed.url()).isEqualTo("wss://gw.example.com/llm/openai/realtime");
        assertThat(managed.apiKey()).isEqualTo(sentinel);
        assertThat(load("PLATFORM_INFERENCE_OPENAI_BASE_URL", "http://10.0.0.1:8080/llm/openai",
                "PLATFORM_INFERENCE_OPENAI_API_KEY", "k").voice().url()).isEqualTo("ws://10.0.0.1:8080/llm/openai/realtime");
        var pub = load("OPENAI_API_KEY", "ok").voice();
        assertThat(pub.step()).isEqualTo(3);
        assertThat(pub.url()).isEqualTo("wss://api.openai.com/v1/realtime");
    }

    @Test
    void platformTemplateBaseUrlsAreExpandedAndRouteChat() {
        RuntimeConfig c = load("LLM_PROVIDER", "openai", "PLATFORM_API_URL", "https://platform.example.com/",
                "PLATFORM_INFERENCE_OPENAI_BASE_URL", "${PLATFORM_API_URL}/llm/openai",
                "PLATFORM_INFERENCE_OPENAI_API_KEY", "__platform_inference_key:openai__",
                "OPENAI_BASE_URL", "https://ignored.example.com/v1");
        assertThat(c.problems()).isEmpty();
        assertThat(c.endpoints().routed()).isTrue();
        assertThat(c.endpoints().chatBase()).isEqualTo("https://platform.example.com/llm/openai");
        assertThat(c.endpoints().chatKey()).isEqualTo("__platform_inference_key:openai__");
        // each backend's route of the platform's Inference routes table under its base URL
        ProviderEndpoints mantle = load("LLM_PROVIDER", "bedrock-mantle", "PLATFORM_API_URL", "http://p:8080",
                "AWS_REGION", "eu-west-1").endpoints();
        assertThat(mantle.chatBase()).isEqualTo("http://p:8080/llm/bedrock-mantle/anthropic/eu-west-1");
        assertThat(mantle.embedBase()).isEqualTo("http://p:8080/llm/bedrock/eu-west-1");
        assertThat(load("LLM_PROVIDER", "bedrock", "PLATFORM_API_URL", "http://p:8080").endpoints().chatBase())
                .isEqualTo("http://p:8080/llm/bedrock/us-east-1");
        ProviderEndpoints azure = load("LLM_PROVIDER", "azure", "PLATFORM_API_URL", "http://p:8080").endpoints();
        assertThat(azure.chatBase()).isEqualTo("http://p:8080/llm/azure/anthropic");
        assertThat(azure.embedBase()).isEqualTo("http://p:8080/llm/azure/openai");
    }

    @Test
    void configReportRedactsSecretsAndNamesSources() {
        String sentinel = "__platform_cred:123e4567-e89b-12d3-a456-426614174000__";
        RuntimeConfig c = load("LLM_PROVIDER", "openai", "OPENAI_API_KEY", "sk-live-abcdef123456",
                "AZURE_API_KEY", sentinel, "SLACK_BOT_TOKEN", "xoxb-secret-token");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ConfigReport.print(c, new PrintStream(out, true, StandardCharsets.UTF_8));
        String text = out.toString(StandardCharsets.UTF_8);
        assertThat(text).doesNotContain("sk-live-abcdef123456").doesNotContain("xoxb-secret-token");
        assertThat(text).containsPattern("OPENAI_API_KEY +\\*{6} \\(redacted\\) +environment").doesNotContain("chars");
        assertThat(text).contains(sentinel);
        assertThat(text).containsPattern("PORT +3003 +default");
        assertThat(text).contains("# Voice meetings").contains("provider                                     openai");
    }
}
