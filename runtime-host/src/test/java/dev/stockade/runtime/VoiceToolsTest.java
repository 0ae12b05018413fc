package dev.stockade.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The meeting tools register only with a realtime credential and the browser and audio toolchain; otherwise they are
 * absent from what the model is offered and a call asked for over HTTP is refused with the reason.
 */
class VoiceToolsTest {
    private static final String KEY = "sk-realtime-tools-0123456789";
    @TempDir
    Path home;
    private ProviderDouble provider;
    private TestRuntime rt;

    @BeforeEach
    void provider() throws Exception {
        provider = new ProviderDouble();
    }

    @AfterEach
    void stop() {
        if (rt != null) {
            rt.close();
        }
        provider.close();
    }

    private List<String> offeredTools(Map<String, String> extra) throws Exception {
        Map<String, String> env = new HashMap<>(TestRuntime.azure(provider));
        env.putAll(extra);
        rt = new TestRuntime(home, env).start();
        provider.enqueue(ProviderDouble.Reply.text("ok"));
        String thread = rt.post("/agents/threads", "{\"title\":\"t\"}").json().path("id").asText();
        assertThat(rt.post("/agents/threads/" + thread + "/messages", "{\"text\":\"hi\"}").status()).isEqualTo(200);
        return provider.chats().get(0).body().path("tools").findValuesAsText("name");
    }

    private static Map<String, String> credential(String path) {
        return Map.of("OPENAI_REALTIME_URL", "ws://127.0.0.1:9/v1/realtime", "OPENAI_REALTIME_API_KEY", KEY,
                "PATH", path);
    }

    @Test
    void withCredentialAndToolchainTheMeetingToolsAreOffered() throws Exception {
        assertThat(offeredTools(credential(System.getenv("PATH")))).contains("join_meeting", "leave_meeting");
    }

    @Test
    void withoutACredentialTheToolsAreAbsentAndACallIsRefused() throws Exception {
        assertThat(offeredTools(Map.of("PATH", System.getenv("PATH")))).doesNotContain("join_meeting",
                "leave_meeting");
        TestRuntime.Answer a = rt.post("/agents/voice/calls", "{\"url\":\"https://meet.example.com/abc-defg-hij\"}");
        assertThat(a.status()).isEqualTo(503);
        assertThat(a.json().path("detail").asText()).startsWith("voice calls are off: no realtime credential is set")
                .contains("OPENAI_REALTIME_API_KEY");
    }

    @Test
    void withoutTheToolchainTheToolsAreAbsentAndTheRefusalNamesWhatIsMissing() throws Exception {
        // a PATH with only a browser on it: no driver and no PulseAudio
        Path bin = Files.createDirectories(home.resolve("bin"));
        Files.createSymbolicLink(bin.resolve("chromium"), Path.of("/usr/bin/chromium"));
        assertThat(offeredTools(credential(bin.toString()))).doesNotContain("join_meeting", "leave_meeting");
        TestRuntime.Answer a = rt.post("/agents/voice/calls", "{\"url\":\"https://meet.example.com/abc-defg-hij\"}");
        assertThat(a.status()).isEqualTo(503);
        assertThat(a.json().path("detail").asText())
                .isEqualTo("voice calls are off: this host lacks chromedriver, pactl, pulseaudio (install chromium, "
                        + "chromium-driver, pulseaudio and pulseaudio-utils)");
        assertThat(a.body()).doesNotContain(KEY);
    }

    @Test
    void aCallToAPlainHttpRemotePageIsRefused() throws Exception {
        offeredTools(credential(System.getenv("PATH")));
        TestRuntime.Answer a = rt.post("/agents/voice/calls", "{\"url\":\"http://meet.example.com/abc\"}");
        assertThat(a.status()).isEqualTo(409);
        assertThat(a.json().path("detail").asText()).contains("must be an https:// meeting link");
    }
}
