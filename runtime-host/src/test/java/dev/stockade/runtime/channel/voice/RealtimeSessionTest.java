package dev.stockade.runtime.channel.voice;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stockade.runtime.config.VoiceEndpoint;
import dev.stockade.runtime.observe.Telemetry;
import dev.stockade.testing.Await;
import dev.stockade.runtime.observe.Log;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The realtime session against a double speaking the Realtime API's event protocol. */
class RealtimeSessionTest {
    private static final String KEY = "sk-realtime-test-0123456789";
    private RealtimeDouble server;
    private final ByteArrayOutputStream spoken = new ByteArrayOutputStream();
    private final List<Boolean> heard = new CopyOnWriteArrayList<>();
    private final List<String> replies = new CopyOnWriteArrayList<>();
    private final List<RealtimeUsage> responses = new CopyOnWriteArrayList<>();
    private final List<String> failures = new CopyOnWriteArrayList<>();
    private final RealtimeSession.Listener listener = new RealtimeSession.Listener() {
        @Override
        public void audio(byte[] pcm16) {
            synchronized (spoken) {
                spoken.writeBytes(pcm16);
            }
        }

        @Override
        public void heard(String transcript, boolean addressed) {
            heard.add(addressed);
        }

        @Override
        public void replied(String transcript) {
            replies.add(transcript);
        }

        @Override
        public void responded(RealtimeUsage usage) {
            responses.add(usage);
        }

        @Override
        public void failed(String code) {
            failures.add(code);
        }
    };

    @BeforeEach
    void start() throws Exception {
        server = new RealtimeDouble(KEY);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    static VoiceSettings settings(String url, String key, int step) {
        return new VoiceSettings(new VoiceEndpoint(url, key, step), "gpt-realtime-2.1", "marin", "gpt-live-transcribe",
                null, MeetingAccount.NONE, Path.of("unused"), Duration.ofSeconds(300), Duration.ofMinutes(60));
    }

    /** A session without tools: the agent's tools in a call are covered with the real agent in VoiceCallTest. */
    static final CallBrief BRIEF = new CallBrief("You are Ada, an agent of team Local.", List.of(),
            (id, name, input) -> {
                throw new IllegalStateException("this session offers no tools");
            });

    private RealtimeSession open(VoiceSettings s) throws VoiceRefused {
        return RealtimeSession.open(s, Addressing.byName(List.of("Ada")), BRIEF, listener, Telemetry.off());
    }

    private RealtimeSession open() throws VoiceRefused {
        return open(settings(server.url(), KEY, 1));
    }

    @Test
    void sessionIsConfiguredWithTheModelVoiceAndTranscriberAndAnswersOnlyWhenAddressed() throws Exception {
        try (RealtimeSession s = open()) {
            Await.until("session.update arrives", () -> !server.received.isEmpty());
            assertThat(server.handshakes).containsExactly("/v1/realtime?model=gpt-realtime-2.1 Bearer " + KEY);
            JsonNode session = server.received.get(0).path("session");
            assertThat(server.received.get(0).path("type").asText()).isEqualTo("session.update");
            assertThat(session.path("output_modalities").get(0).asText()).isEqualTo("audio");
            assertThat(session.at("/audio/output/voice").asText()).isEqualTo("marin");
            assertThat(session.at("/audio/input/transcription/model").asText()).isEqualTo("gpt-live-transcribe");
            assertThat(session.at("/audio/input/turn_detection/type").asText()).isEqualTo("server_vad");
            assertThat(session.at("/audio/input/turn_detection/create_response").asBoolean(true)).isFalse();
            assertThat(session.path("instructions").asText()).isEqualTo("You are Ada, an agent of team Local.");
            assertThat(session.path("tools").size()).isZero();
            assertThat(session.path("tool_choice").asText()).isEqualTo("none");

            byte[] mic = {1, 2, 3, 4, 5, 6, 7, 8};
            s.appendAudio(mic);
            Await.until("audio appended", () -> server.audio().length == mic.length);
            assertThat(server.audio()).containsExactly(mic);

            server.speak("so the numbers look fine, let's move on");
            Await.until("first turn heard", () -> heard.size() == 1);
            server.speak("Ada, can you summarise where we are?");
            Await.until("a response is done", () -> responses.size() == 1);
            assertThat(heard).containsExactly(false, true);
            assertThat(server.types()).containsExactly("session.update", "input_audio_buffer.append",
                    "response.create");
            synchronized (spoken) {
                assertThat(spoken.toByteArray()).containsExactly(RealtimeDouble.REPLY_AUDIO);
            }
            assertThat(replies).containsExactly("Yes, I am here.");
            // the transcripts decided, and neither reached the model
            assertThat(server.received.toString()).doesNotContain("numbers", "summarise");
        }
    }

    @Test
    void usageOfEveryResponseIsRecordedAndSummed() throws Exception {
        try (RealtimeSession s = open()) {
            server.speak("Ada?");
            Await.until("first response", () -> responses.size() == 1);
            server.speak("thanks ADA");
            Await.until("second response", () -> responses.size() == 2);
            RealtimeUsage one = new RealtimeUsage(RealtimeDouble.INPUT_TOKENS, RealtimeDouble.OUTPUT_TOKENS,
                    RealtimeDouble.INPUT_AUDIO_TOKENS, RealtimeDouble.OUTPUT_AUDIO_TOKENS, RealtimeDouble.CACHED_TOKENS);
            assertThat(responses).containsExactly(one, one);
            assertThat(s.usage()).isEqualTo(new RealtimeUsage(620, 190, 500, 160, 128));
        }
    }

    @Test
    void serverErrorsAreReportedByCode() throws Exception {
        try (RealtimeSession s = open()) {
            server.fail("rate_limit_exceeded");
            Await.until("the error arrives", () -> !failures.isEmpty());
            assertThat(failures).containsExactly("rate_limit_exceeded");
        }
    }

    @Test
    void aRejectedKeyRefusesTheCallWithoutNamingTheKey() {
        VoiceSettings wrong = settings(server.url(), "sk-wrong-key-9876543210", 1);
        assertThatThrownBy(() -> open(wrong))
                .isInstanceOf(VoiceRefused.class)
                .hasMessageContaining("could not open the realtime session at `ws://127.0.0.1:")
                // the real server answers 401; Java-WebSocket, under the double, can only reject a handshake with 404
                .hasMessageEndingWith("the realtime endpoint answered the handshake with 404")
                .hasMessageNotContaining("sk-wrong");
    }

    @Test
    void anEndpointThatIsNotListeningRefusesTheCallSayingSo() throws Exception {
        int closed;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            closed = s.getLocalPort();
        }
        String url = "ws://127.0.0.1:" + closed + "/v1/realtime";
        assertThatThrownBy(() -> open(settings(url, KEY, 1))).isInstanceOf(VoiceRefused.class)
                .hasMessage("could not open the realtime session at `" + url + "`: the connection was refused");
    }

    @Test
    void plainWsIsRefusedForARemoteHostAndWssGetsTheModel() throws Exception {
        assertThatThrownBy(() -> RealtimeSession.target(settings("ws://realtime.example.com/v1/realtime", KEY, 1)))
                .isInstanceOf(VoiceRefused.class).hasMessageContaining("must be wss://");
        assertThatThrownBy(() -> RealtimeSession.target(settings("ws://realtime.example.com/v1/realtime", KEY, 3)))
                .isInstanceOf(VoiceRefused.class);
        assertThat(RealtimeSession.target(settings(VoiceEndpoint.PUBLIC_URL, KEY, 3)))
                .isEqualTo(URI.create("wss://api.openai.com/v1/realtime?model=gpt-realtime-2.1"));
        assertThat(RealtimeSession.target(settings("ws://[::1]:9/v1/realtime", KEY, 1)).getScheme()).isEqualTo("ws");
    }

    @Test
    void anExplicitHttpsProxyIsTunnelledThroughWithConnect() throws Exception {
        try (ConnectProxy proxy = new ConnectProxy()) {
            VoiceSettings proxied = settings(server.url(), KEY, 1).withProxy(ProxyRoute.parse("http://127.0.0.1:"
                    + proxy.port()));
            try (RealtimeSession session = open(proxied)) {
                Await.until("session.update arrives through the tunnel", () -> !server.received.isEmpty());
            }
            assertThat(proxy.requests).containsExactly("CONNECT 127.0.0.1:" + server.getPort() + " HTTP/1.1");
            assertThat(proxy.authorizations).containsExactly("");
        }
    }

    @Test
    void aProxyPasswordGoesIntoProxyAuthorizationAndNowhereElse() throws Exception {
        String password = "pr0xy-S3cret/with@signs";
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Log.to(new PrintStream(log, true, StandardCharsets.UTF_8));
        try (ConnectProxy proxy = new ConnectProxy("sandbox", password)) {
            String url = "http://sandbox:" + URLEncoder.encode(password, StandardCharsets.UTF_8) + "@127.0.0.1:"
                    + proxy.port();
            VoiceSettings proxied = settings(server.url(), KEY, 1).withProxy(ProxyRoute.parse(url));
            try (RealtimeSession session = open(proxied)) {
                Await.until("session.update arrives through the tunnel", () -> !server.received.isEmpty());
            }
            String basic = Base64.getEncoder().encodeToString(("sandbox:" + password)
                    .getBytes(StandardCharsets.UTF_8));
            assertThat(proxy.authorizations).containsExactly("Basic " + basic);
            assertThat(proxied.toString()).doesNotContain(password).contains("***:***@127.0.0.1");
        } finally {
            Log.to(System.err);
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("voice.session_opened").doesNotContain(password);
    }

    @Test
    void aProxyThatRefusesTheCredentialsRefusesTheCallWithoutThePassword() throws Exception {
        String password = "pr0xy-S3cret-0123";
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        Log.to(new PrintStream(log, true, StandardCharsets.UTF_8));
        try (ConnectProxy proxy = new ConnectProxy("sandbox", password)) {
            String base = "127.0.0.1:" + proxy.port();
            assertThatThrownBy(() -> open(settings(server.url(), KEY, 1).withProxy(ProxyRoute.parse("http://" + base))))
                    .isInstanceOf(VoiceRefused.class)
                    .hasMessageEndingWith("the proxy " + base + " refused the tunnel (407: it needs a user and "
                            + "password in HTTPS_PROXY)");
            assertThatThrownBy(() -> open(settings(server.url(), KEY, 1).withProxy(ProxyRoute.parse("http://sandbox:"
                    + password + "-wrong@" + base))))
                    .isInstanceOf(VoiceRefused.class)
                    .hasMessageEndingWith("the proxy " + base + " refused the tunnel (407: it rejected the user "
                            + "`sandbox` or its password)")
                    .hasMessageNotContaining(password);
            assertThat(proxy.requests).hasSize(2);
            assertThat(server.handshakes).isEmpty();
        } finally {
            Log.to(System.err);
        }
        assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain(password);
    }

    @Test
    void aMalformedProxyRefusesVoiceInsteadOfGoingDirect() {
        assertThatThrownBy(() -> ProxyRoute.parse("not a url"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rather than direct");
        assertThat(ProxyRoute.parse(null)).isNull();
        assertThat(ProxyRoute.parse("http://proxy.internal")).isEqualTo(new ProxyRoute("proxy.internal", 80, null,
                null));
        assertThat(ProxyRoute.parse("http://u%40corp:p%3Aw@proxy:3128")).isEqualTo(new ProxyRoute("proxy", 3128,
                "u@corp", "p:w"));
    }

    @Test
    void noCredentialRefusesTheCall() {
        assertThatThrownBy(() -> open(settings(null, null, 0)))
                .isInstanceOf(VoiceRefused.class).hasMessage(VoiceChannel.NO_CREDENTIAL);
    }
}
