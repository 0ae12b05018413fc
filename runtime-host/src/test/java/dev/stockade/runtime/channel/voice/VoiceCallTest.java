package dev.stockade.runtime.channel.voice;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stockade.runtime.AgentRuntime;
import dev.stockade.runtime.config.ChildEnvironment;
import dev.stockade.runtime.config.RuntimeConfig;
import dev.stockade.testing.Await;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A call through the whole runtime: {@code POST /agents/voice/calls} joins the lobby page in the real browser, the
 * realtime double stands for the model, and the one agent (its documents, its lock, its tool dispatcher, its threads)
 * is the runtime's own. Requires chromium, chromium-driver, pulseaudio and pulseaudio-utils.
 */
class VoiceCallTest {
    private static final String KEY = "sk-realtime-call-0123456789";
    private static final String PASSWORD = "c0rrect-Horse-Battery-0123";
    private static final MeetingAccount ACCOUNT = new MeetingAccount("ada.bot@example.com", PASSWORD);
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();
    private static final ChildEnvironment ENV = ChildEnvironment.of(System.getenv());

    @TempDir
    Path home;
    private LobbyDouble lobby;
    private RealtimeDouble realtime;
    private AgentRuntime runtime;

    @BeforeEach
    void start() throws Exception {
        assertThat(VoiceToolchain.find(System.getenv("PATH")).missing())
                .as("install chromium chromium-driver pulseaudio pulseaudio-utils").isEmpty();
        lobby = new LobbyDouble();
        realtime = new RealtimeDouble(KEY);
        Map<String, String> env = new HashMap<>();
        for (String passed : List.of("PATH", "HOME", "USER", "XDG_RUNTIME_DIR", "PULSE_SERVER")) {
            if (System.getenv(passed) != null) {
                env.put(passed, System.getenv(passed));
            }
        }
        env.putAll(Map.of("AGENT_HOME", home.toString(), "AGENT_DATA_DIR", home.resolve("data").toString(),
                "PORT", "0", "AGENT_NAME", "Ada", "LLM_PROVIDER", "azure",
                // the chat model is never called in a call: the realtime model converses
                "AZURE_FOUNDRY_BASE_URL", "http://127.0.0.1:9/anthropic/v1", "AZURE_API_KEY", "sk-azure-unused-0123",
                "AZURE_EMBEDDING_MODEL_ID", "", "OPENAI_REALTIME_URL", realtime.url(),
                "OPENAI_REALTIME_API_KEY", KEY));
        env.put("GOOGLE_BOT_EMAIL", ACCOUNT.email());
        env.put("GOOGLE_BOT_PASSWORD", PASSWORD);
        RuntimeConfig cfg = RuntimeConfig.load(env, home.toString());
        assertThat(cfg.problems()).isEmpty();
        runtime = AgentRuntime.start(cfg, "127.0.0.1", false);
    }

    @AfterEach
    void stop() {
        runtime.close();
        realtime.close();
        lobby.close();
    }

    @Test
    void theCallCarriesTheAgentRunsItsToolsThroughTheOneDispatcherAndIsStoredAsAThread() throws Exception {
        send("PUT", "/agents/documents/soul", "{\"content\":\"Your favourite flower is the heliotrope.\"}");
        send("PUT", "/agents/documents/memory-summary", "{\"content\":\"The team ships on Thursdays.\"}");
        JsonNode session = join();
        assertThat(session.path("instructions").asText()).contains("You are Ada", "heliotrope",
                "The team ships on Thursdays.", "video call");
        List<String> tools = StreamSupport.stream(session.path("tools").spliterator(), false)
                .map(t -> t.path("type").asText() + ":" + t.path("name").asText()).toList();
        assertThat(tools).contains("function:memory_search", "function:memory_write", "function:update_settings",
                "function:leave_meeting");
        assertThat(session.path("tool_choice").asText()).isEqualTo("auto");

        realtime.nextResponseCalls("update_settings", "{\"verbose\":true}");
        realtime.replyWith(tone(24_000), "Done, every step is delivered now.");
        realtime.speak("so the numbers look fine");
        realtime.speak("Ada, please turn verbose on");
        Await.until("the tool ran in the agent", () -> get("/agents/profile").path("verbose").asBoolean());
        Await.until("the answer after the tool's output", () -> realtime.types().stream()
                .filter("response.create"::equals).count() == 2);
        JsonNode output = realtime.received.stream().filter(e -> e.path("type").asText()
                .equals("conversation.item.create")).findFirst().orElseThrow().path("item");
        assertThat(output.path("type").asText()).isEqualTo("function_call_output");
        assertThat(output.path("output").asText()).isEqualTo("updated verbose=true");
        assertThat(realtime.types()).containsSubsequence("response.create", "conversation.item.create",
                "response.create");

        JsonNode thread = callThread();
        assertThat(thread.path("title").asText()).isEqualTo("Call 127.0.0.1/meet/admit");
        Await.until("the answer is stored", () -> messages(thread).contains("assistant: Done, every step is "
                + "delivered now."));
        List<String> stored = messages(thread);
        assertThat(stored.get(0)).isEqualTo("user: Ada, please turn verbose on");
        assertThat(stored.get(1)).startsWith("tool_use: ").contains("update_settings");
        assertThat(stored.get(2)).startsWith("tool_result: ").contains("updated verbose=true");
        assertThat(stored).hasSize(4).noneMatch(m -> m.contains("numbers"));
        leave();
    }

    @Test
    void theAgentsVoiceReachesTheMeetingPageAndIsSilentBeforeItSpeaks() throws Exception {
        join();
        Await.until("the page measures its microphone", () -> lobby.levels.size() >= 10);
        assertThat(lobby.levels.stream().mapToDouble(Double::doubleValue).max().orElseThrow()).isLessThan(0.01);
        int before = lobby.levels.size();
        realtime.replyWith(tone(36_000), "Yes, I am here.");
        realtime.speak("Ada, are you there?");
        Await.until("the page hears the agent", () -> lobby.levels.subList(before, lobby.levels.size()).stream()
                .anyMatch(l -> l > 0.1));
        leave();
    }

    @Test
    void theCallersSoundReachesTheRealtimeSession() throws Exception {
        join();
        String sink = callSink();
        Process caller = ENV.processBuilder(List.of("pacat", "--playback", "--device=" + sink, "--format=s16le",
                "--rate=24000", "--channels=1", "--raw")).start();
        try (OutputStream out = caller.getOutputStream()) {
            out.write(tone(24_000));
        }
        Await.until("the tone reaches input_audio_buffer.append", () -> loud(realtime.audio()));
        caller.destroy();
        leave();
    }

    @Test
    void aLockedAgentsCallWithholdsFrozenToolsAndTheDispatcherRefusesThem() throws Exception {
        send("PATCH", "/agents/locked-in", "{\"lockedIn\":true}");
        JsonNode session = join();
        List<String> tools = session.path("tools").findValuesAsText("name");
        assertThat(tools).contains("memory_search").doesNotContain("memory_write", "write_document");
        realtime.nextResponseCalls("memory_write", "{\"content\":\"the launch moved to Friday\"}");
        realtime.speak("Ada, remember that the launch moved to Friday");
        Await.until("the refusal went back to the model", () -> realtime.types().contains("conversation.item.create"));
        JsonNode output = realtime.received.stream().filter(e -> e.path("type").asText()
                .equals("conversation.item.create")).findFirst().orElseThrow().path("item");
        assertThat(output.path("output").asText()).startsWith("error: Refused: this would have")
                .contains("locked in");
        assertThat(get("/agents/memory").path("count").asInt()).isZero();
        leave();
    }

    @Test
    void theMeetingAccountSignsInFromTheConfigurationAndARefusedSignInIsToldWithoutThePassword() throws Exception {
        lobby.requireSignIn(ACCOUNT, false);
        join();
        assertThat(lobby.signInVisits).contains("POST /signin/challenge/pwd");
        JsonNode during = get("/agents/voice/calls");
        assertThat(during.path("state").asText()).isEqualTo("in_call");
        leave();
        assertThat(get("/agents/voice/calls").path("lastOutcome").asText()).isEqualTo("left");

        // the provider now wants another password than GOOGLE_BOT_PASSWORD, and the old session is gone
        lobby.requireSignIn(new MeetingAccount(ACCOUNT.email(), "rotated-elsewhere-0123"), false);
        lobby.forgetSessions();
        String body = JSON.createObjectNode().put("url", lobby.meeting("admit", 200, 0).toString()).toString();
        assertThat(send("POST", "/agents/voice/calls", body).statusCode()).isEqualTo(202);
        Await.until("the call attempt ended", () -> get("/agents/voice/calls").path("lastOutcome").asText()
                .equals("failed"));
        HttpResponse<String> status = send("GET", "/agents/voice/calls", null);
        JsonNode s = JSON.readTree(status.body());
        assertThat(s.path("state").asText()).isEqualTo("idle");
        assertThat(s.path("lastDetail").asText()).isEqualTo("the meeting account `ada.bot@example.com` could not sign "
                + "in: wrong password (check GOOGLE_BOT_PASSWORD)");
        assertThat(status.body()).doesNotContain(PASSWORD);
    }

    /** Joins the lobby over HTTP and returns the session the runtime configured once admitted. */
    private JsonNode join() throws Exception {
        String body = JSON.createObjectNode().put("url", lobby.meeting("admit", 200, 0).toString()).toString();
        assertThat(send("POST", "/agents/voice/calls", body).statusCode()).isEqualTo(202);
        Await.until("the agent is admitted", Duration.ofSeconds(60), () -> lobby.events.contains("admitted"));
        Await.until("the session is configured", () -> realtime.types().contains("session.update"));
        return realtime.received.get(0).path("session");
    }

    private void leave() throws Exception {
        assertThat(send("DELETE", "/agents/voice/calls", null).statusCode()).isEqualTo(200);
        Await.until("the agent left the call", () -> lobby.events.contains("left"));
        Await.until("the meeting is over", () -> send("DELETE", "/agents/voice/calls", null).statusCode() == 409);
    }

    private JsonNode callThread() {
        return StreamSupport.stream(get("/agents/threads").path("threads").spliterator(), false)
                .filter(t -> t.path("channel").asText().equals("voice")).findFirst().orElseThrow();
    }

    private List<String> messages(JsonNode thread) {
        return StreamSupport.stream(get("/agents/threads/" + thread.path("id").asText() + "/messages")
                .path("messages").spliterator(), false)
                .map(m -> m.path("role").asText() + ": " + m.path("content").asText()).toList();
    }

    /**
     * The sink this runtime's browser plays the call into, from the browser's own environment (another run on this
     * machine may hold a call of its own on the same PulseAudio server).
     */
    private String callSink() {
        String profile = home.resolve("data").resolve("meeting-profile").toString();
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().orElse("").contains(profile))
                .flatMap(p -> environment(p.pid()).lines()).filter(l -> l.startsWith("PULSE_SINK="))
                .map(l -> l.substring("PULSE_SINK=".length())).findFirst().orElseThrow();
    }

    private static String environment(long pid) {
        try {
            return Files.readString(Path.of("/proc", Long.toString(pid), "environ"), StandardCharsets.ISO_8859_1)
                    .replace('\0', '\n');
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private HttpResponse<String> send(String method, String path, String body) {
        try {
            HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + runtime.port() + path))
                    .method(method, body == null ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofString(body));
            return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new AssertionError(method + " " + path + " failed", e);
        }
    }

    private JsonNode get(String path) {
        try {
            return JSON.readTree(send("GET", path, null).body());
        } catch (Exception e) {
            throw new AssertionError("GET " + path + " is not JSON", e);
        }
    }

    /** {@code samples} of a loud square wave, PCM16 mono. */
    static byte[] tone(int samples) {
        byte[] b = new byte[samples * 2];
        for (int i = 0; i < samples; i++) {
            short v = (short) (i % 48 < 24 ? 12_000 : -12_000);
            b[2 * i] = (byte) v;
            b[2 * i + 1] = (byte) (v >> 8);
        }
        return b;
    }

    /** Whether some sample of {@code pcm} is far from silence (the null sink's monitor is all zeros otherwise). */
    static boolean loud(byte[] pcm) {
        for (int i = 0; i + 1 < pcm.length; i += 2) {
            short v = (short) ((pcm[i] & 0xff) | (pcm[i + 1] << 8));
            if (Math.abs(v) > 4_000) {
                return true;
            }
        }
        return false;
    }
}
